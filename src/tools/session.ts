// Starting and ending a browser session.
import { Effect, Schema } from "effect"
import { StorageState } from "../domain/config.js"
import { ScreenState } from "../domain/observation.js"
import { defineTool } from "../runtime/tool.js"
import { KnowledgeStore } from "../services/KnowledgeStore.js"
import { Observer } from "../services/Observer.js"
import { Session } from "../services/Session.js"

const Tags = (description: string) =>
  Schema.optionalWith(Schema.Array(Schema.String.pipe(Schema.minLength(1))).pipe(Schema.maxItems(50)), {
    default: () => []
  }).annotations({ description })

const LaunchInput = Schema.Struct({
  goal: Schema.optional(Schema.String.pipe(Schema.maxLength(500))).annotations({
    description: "What this session is for, in a sentence; helps later sessions find it."
  }),
  flowTags: Tags('Names of the flows this session exercises, e.g. ["login"].'),
  tags: Tags("Free-form tags for finding the session later."),
  stateMode: Schema.optionalWith(Schema.Literal("default", "onboarding", "custom"), {
    default: () => "default" as const
  }).annotations({
    description:
      'default: the "default" fixture of the config file, if any; onboarding: a fresh profile; custom: fixturePreset or fixture.'
  }),
  fixturePreset: Schema.optional(Schema.String).annotations({ description: "Name of a fixture from the config file." }),
  fixture: Schema.optional(StorageState),
  slowMo: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(0, 10_000)), { default: () => 0 }).annotations({
    description: "Slow every browser operation down by this many milliseconds (0..10000), to watch a headed run."
  }),
  force: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
    description: "Close a running session first instead of failing with MM_SESSION_ALREADY_RUNNING."
  }),
  extensionPath: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: "Unpacked Manifest V3 extension to load instead of the configured one."
  }),
  autoBuild: Schema.optional(Schema.Boolean).annotations({
    description: "Accepted for compatibility; this server does not build before launching."
  })
})

export const launch = defineTool({
  name: "launch",
  title: "Launch the browser",
  description:
    "Start a browser session: launches Chromium (loading the configured extension, if any), or opens a context in the configured remote browser, and opens the home page (the extension's popup or options page, or the web app). Call this first, and again after MM_BROWSER_CLOSED (the browser died; no force needed). Returns {sessionId, extensionId?, state}. Fails with MM_SESSION_ALREADY_RUNNING when a session runs or another launch is starting one, unless force is true.",
  input: LaunchInput,
  output: Schema.Struct({
    sessionId: Schema.String,
    extensionId: Schema.optional(Schema.String),
    state: ScreenState
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  requiresSession: false,
  observation: "custom",
  deadlineMs: () => 60_000,
  observe: (result) => ({ state: result.state }),
  record: (input) => ({
    input: {
      stateMode: input.stateMode,
      ...(input.fixturePreset !== undefined ? { fixturePreset: input.fixturePreset } : {}),
      ...(input.fixture !== undefined ? { fixture: "[inline fixture]" } : {}),
      flowTags: input.flowTags,
      tags: input.tags
    }
  }),
  run: Effect.fn("tool.launch")(function* (input) {
    const session = yield* Session
    const observer = yield* Observer
    const store = yield* KnowledgeStore
    const launched = yield* session.launch({
      goal: input.goal,
      flowTags: input.flowTags,
      tags: input.tags,
      stateMode: input.stateMode,
      fixturePreset: input.fixturePreset,
      fixture: input.fixture,
      slowMo: input.slowMo,
      force: input.force,
      extensionPath: input.extensionPath
    })
    yield* store
      .startSession({
        schemaVersion: 1,
        sessionId: launched.sessionId,
        createdAt: new Date().toISOString(),
        ...(input.goal !== undefined ? { goal: input.goal } : {}),
        flowTags: input.flowTags,
        tags: input.tags,
        launch: {
          stateMode: input.stateMode,
          ...(input.fixturePreset !== undefined ? { fixturePreset: input.fixturePreset } : {}),
          ...(input.extensionPath !== undefined ? { extensionPath: input.extensionPath } : {})
        }
      })
      .pipe(Effect.catchTag("KnowledgeError", (error) => Effect.logWarning("session metadata not written", error.message)))
    // The session started: a first page that cannot be read yet is no reason to call the launch failed.
    const unread = { isLoaded: false, currentUrl: launched.homeUrl, title: "", currentScreen: "unknown" }
    const state = yield* observer.state.pipe(
      Effect.catchTags({
        NoActiveSession: () => Effect.succeed(unread),
        BrowserClosed: () => Effect.succeed(unread),
        PageClosed: () => Effect.succeed(unread),
        StateFailed: () => Effect.succeed(unread)
      })
    )
    return {
      sessionId: launched.sessionId,
      ...(launched.extensionId !== undefined ? { extensionId: launched.extensionId } : {}),
      state
    }
  })
})

export const cleanup = defineTool({
  name: "cleanup",
  title: "Close the browser",
  description:
    "End the session: closes the browser and deletes its temporary profile (a configured --user-data-dir profile stays; a remote browser keeps running, only this server's context closes). Safe to call when nothing runs. Returns {cleanedUp} (false when no session was running).",
  input: Schema.Struct({
    sessionId: Schema.optional(Schema.String).annotations({ description: "Accepted for compatibility; the running session is closed." })
  }),
  output: Schema.Struct({ cleanedUp: Schema.Boolean }),
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  requiresSession: false,
  observation: "none",
  deadlineMs: () => 30_000,
  run: Effect.fn("tool.cleanup")(function* () {
    const session = yield* Session
    return { cleanedUp: yield* session.cleanup }
  })
})
