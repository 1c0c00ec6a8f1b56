// Errors of DevTools: the debugger (paused, not paused, refused), page evaluation, captured requests and
// network mocks.
import { Schema } from "effect"
import { PauseContext } from "../debugger.js"


/**
 * The page's JavaScript is paused in the debugger: a call that needs it running was refused (`tool`),
 * or the call itself made it pause (`during`, with the pause's context).
 */
export class DebuggerPaused extends Schema.TaggedError<DebuggerPaused>()("DebuggerPaused", {
  /** The served name of the tool refused because the page is paused. */
  tool: Schema.optional(Schema.String),
  /** The action during which the page paused (it was delivered and completes when the page runs again). */
  during: Schema.optional(Schema.String),
  tabId: Schema.String,
  /** Where it is paused, e.g. "app.js:4:3 in handler". */
  at: Schema.String,
  pause: Schema.optional(PauseContext)
}) {
  get code() {
    return "MM_DEBUGGER_PAUSED" as const
  }
  override get message() {
    if (this.during !== undefined) {
      return `The page paused in the debugger during ${this.during} (tab ${this.tabId}, ${this.at}). The ${this.during} was delivered and completes when the page runs again; details.pause has the context. Continue with mm_step, mm_evaluate_frame or mm_debugger {"action": "resume"}.`
    }
    return `${this.tool ?? "This call"} cannot run while tab ${this.tabId} is paused in the debugger at ${this.at}. Call mm_debugger {"action": "resume"} or mm_step first, or leave the page with mm_navigate.`
  }
  get details() {
    return {
      tabId: this.tabId,
      ...(this.during !== undefined ? { during: this.during } : {}),
      ...(this.pause !== undefined ? { pause: this.pause } : {})
    }
  }
}

/** A stepping tool (step, evaluate_frame, resume) was called while nothing is paused. */
export class DebuggerNotPaused extends Schema.TaggedError<DebuggerNotPaused>()("DebuggerNotPaused", {
  tool: Schema.String
}) {
  get code() {
    return "MM_DEBUGGER_NOT_PAUSED" as const
  }
  override get message() {
    return `${this.tool} needs a paused page, and nothing is paused. Set a breakpoint with mm_breakpoint {"action": "set", ...} and trigger it, or call mm_debugger {"action": "pause"}.`
  }
}

/** The browser refused a debugger command (e.g. a regex it cannot parse), or its DevTools session went away. */
export class DebuggerFailed extends Schema.TaggedError<DebuggerFailed>()("DebuggerFailed", {
  action: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_DEBUGGER_FAILED" as const
  }
  override get message() {
    return `The debugger could not ${this.action}: ${this.detail}`
  }
}

/** mm_evaluate: the expression threw, or its promise rejected; the message carries the exception. */
export class EvaluateFailed extends Schema.TaggedError<EvaluateFailed>()("EvaluateFailed", {
  /** The exception as the page reported it (bounded), e.g. "TypeError: x is not a function\n    at <anonymous>:1:3". */
  exception: Schema.String
}) {
  get code() {
    return "MM_EVALUATE_FAILED" as const
  }
  override get message() {
    return `The expression threw in the page: ${this.exception}`
  }
}

/** mm_network_request: no captured request has that id (never given, or let go by its tab's ring). */
export class RequestNotFound extends Schema.TaggedError<RequestNotFound>()("RequestNotFound", {
  id: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_REQUEST_NOT_FOUND" as const
  }
  override get message() {
    return `No captured request ${this.id}: ${this.detail}`
  }
  get details() {
    return { id: this.id }
  }
}

/** mm_mock_network remove: no rule has that id. */
export class MockNotFound extends Schema.TaggedError<MockNotFound>()("MockNotFound", {
  id: Schema.String,
  /** The ids of the rules in force. */
  available: Schema.Array(Schema.String)
}) {
  get code() {
    return "MM_MOCK_NOT_FOUND" as const
  }
  override get message() {
    return `No mock rule ${this.id}. Rules in force: ${this.available.length === 0 ? "none" : this.available.join(", ")}.`
  }
  get details() {
    return { id: this.id, available: this.available }
  }
}
