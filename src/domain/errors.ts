// Every error a client can see: one tagged class per classification (in ./errors/, by family), each
// carrying its MM_* code and a message that tells the agent how to recover; the union is written once here.
import { Schema } from "effect"
import {
  BatchFailed,
  BatchTimeout,
  BuildFailed,
  CapabilityNotAvailable,
  ContractNotFound,
  DeadlineExceeded,
  InvalidConfig,
  InvalidInput,
  KnowledgeError,
  ReplayFailed,
  ReplayRunsFailed,
  SeedFailed,
  ToolUnavailable,
  UnknownTool
} from "./errors/calls.js"
import { clip } from "./errors/clip.js"
import { DebuggerFailed, DebuggerNotPaused, DebuggerPaused, EvaluateFailed, MockNotFound, RequestNotFound } from "./errors/devtools.js"
import {
  ActionFailed,
  ActionTimeout,
  ActionUnconfirmed,
  AssertionFailed,
  DiscoveryFailed,
  NavigationBlocked,
  NavigationFailed,
  PageClosed,
  PageUnresponsive,
  PdfFailed,
  ScreenshotFailed,
  StateFailed,
  TargetAmbiguous,
  TargetNotFound,
  TargetUnusable,
  WaitTimeout
} from "./errors/page.js"
import {
  BrowserClosed,
  EmulationFailed,
  LaunchFailed,
  NoActiveSession,
  NotificationTimeout,
  SessionAlreadyRunning,
  ProfileInUse,
  SessionLimit,
  SessionNotFound,
  StorageStateFailed,
  TabNotFound
} from "./errors/session.js"

export * from "./errors/calls.js"
export * from "./errors/clip.js"
export * from "./errors/devtools.js"
export * from "./errors/page.js"
export * from "./errors/session.js"

/** The wire shape of an error inside the response envelope. */
export interface ErrorInfo {
  readonly code: string
  readonly message: string
  readonly details?: Readonly<Record<string, unknown>>
}

/** Every error a tool program may fail with, as a schema; its type is the union of the classes. */
export const ToolError = Schema.Union(
  // The call
  InvalidInput,
  InvalidConfig,
  DeadlineExceeded,
  UnknownTool,
  ToolUnavailable,
  CapabilityNotAvailable,
  BatchTimeout,
  BatchFailed,
  KnowledgeError,
  ReplayFailed,
  ReplayRunsFailed,
  BuildFailed,
  SeedFailed,
  ContractNotFound,
  // The session
  NoActiveSession,
  SessionAlreadyRunning,
  LaunchFailed,
  BrowserClosed,
  SessionNotFound,
  SessionLimit,
  ProfileInUse,
  TabNotFound,
  NotificationTimeout,
  StorageStateFailed,
  EmulationFailed,
  // The page
  PageClosed,
  PageUnresponsive,
  NavigationFailed,
  NavigationBlocked,
  TargetNotFound,
  TargetAmbiguous,
  ActionTimeout,
  TargetUnusable,
  ActionFailed,
  ActionUnconfirmed,
  WaitTimeout,
  AssertionFailed,
  ScreenshotFailed,
  DiscoveryFailed,
  StateFailed,
  PdfFailed,
  // DevTools
  DebuggerPaused,
  DebuggerNotPaused,
  DebuggerFailed,
  EvaluateFailed,
  RequestNotFound,
  MockNotFound
)
export type ToolError = typeof ToolError.Type

const toolErrorTags: ReadonlySet<string> = new Set(ToolError.members.map((member) => member.identifier))

/** True for values that are one of our tagged tool errors (structure, not message text). */
export const isToolError = (value: unknown): value is ToolError =>
  typeof value === "object" && value !== null && "_tag" in value && toolErrorTags.has(String(value._tag))

/** The longest message an envelope carries; what a message quotes is clipped before (see `clip`), this is the net under it. */
const MESSAGE_LIMIT = 4_000
/** The longest string inside an error's details. */
const DETAIL_LIMIT = 400

const clipDeep = (value: unknown, depth = 0): unknown => {
  if (typeof value === "string") return clip(value, DETAIL_LIMIT)
  if (depth > 4 || typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => clipDeep(item, depth + 1))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [clip(key, 100), clipDeep(item, depth + 1)]))
}

/** The envelope's error object for a tool error, never carrying more than a short prefix of any value. */
export const toErrorInfo = (error: ToolError): ErrorInfo => {
  const details = "details" in error ? error.details : undefined
  const message = clip(error.message, MESSAGE_LIMIT)
  return details === undefined
    ? { code: error.code, message }
    : { code: error.code, message, details: clipDeep(details) as Readonly<Record<string, unknown>> }
}

export const INTERNAL_ERROR_CODE = "MM_INTERNAL_ERROR"
