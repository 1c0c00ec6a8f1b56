// Live browser layers for tests: real Chromium with the loopback guards, pages served on 127.0.0.1.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { expect } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as KnowledgeFiles from "../../src/adapters/knowledge-files.js"
import * as StderrLogger from "../../src/adapters/logger.js"
import * as Playwright from "../../src/adapters/playwright/index.js"
import { LOOPBACK_ARGS } from "../../src/adapters/playwright/lifecycle/launch.js"
import { defaultSettings, type Settings } from "../../src/domain/config.js"
import type { Envelope } from "../../src/domain/envelope.js"
import type { Observation } from "../../src/domain/observation.js"
import type { ToolResponse } from "../../src/runtime/runTool.js"
import { Config } from "../../src/services/Config.js"
import { servePages, type RunningServer } from "../../demo/serve.js"
import * as BuiltinTools from "../../src/tools/registry.js"

export { LOOPBACK_ARGS }

/** A fresh artifacts directory under the OS temp dir. */
export const tempDir = (prefix = "bwm-test-") => fs.mkdtempSync(path.join(os.tmpdir(), prefix))

/** Settings for a test browser: headless, loopback only, artifacts in a temp dir. */
export const testSettings = (overrides: Partial<Settings> = {}): Settings => ({
  ...defaultSettings,
  artifactsDir: tempDir(),
  ...overrides,
  browserArgs: [...LOOPBACK_ARGS, ...(overrides.browserArgs ?? [])]
})

/** Session + Observer over real Chromium and the JSON-file knowledge store. */
export const liveLayer = (settings: Settings) =>
  Layer.mergeAll(Playwright.layer, KnowledgeFiles.layerFileSystem(settings.artifactsDir), BuiltinTools.layer(settings)).pipe(
    Layer.provideMerge(Config.layer(settings)),
    Layer.provideMerge(StderrLogger.layer("warning"))
  )

/** Serves pages on 127.0.0.1 for the scope of a test. */
export const pageServer = (pages: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.promise(() => servePages(pages)),
    (server: RunningServer) => Effect.promise(() => server.close())
  )

/** A minimal HTML document. */
export const html = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`

/** Matches any tab id ("t1", "t2"...) where a test does not care which. */
export const TAB_ID = expect.stringMatching(/^t[0-9]+$/)

/** A response as tests read it: the envelope the client gets, plus the observation as the step record keeps it. */
export type Readable = Envelope<any> & { readonly observation?: Observation | undefined }

export const readable = (response: ToolResponse<unknown>): Readable => ({ ...response.envelope, observation: response.observation })
