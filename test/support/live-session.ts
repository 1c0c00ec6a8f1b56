// The live session layer tests build by hand when they need more in reach than liveLayer gives (the
// BrowserState, to read a page's own state; the Debuggers): Session and Observer over real Chromium,
// the JSON-file knowledge store and Config. Each caller adds the logger it wants.
import { Layer } from "effect"
import * as KnowledgeFiles from "../../src/adapters/knowledge-files.js"
import * as DebuggerSession from "../../src/adapters/playwright/devtools/debugger-session.js"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import * as ObserverAdapter from "../../src/adapters/playwright/observer/observer.js"
import * as SessionAdapter from "../../src/adapters/playwright/session/session.js"
import type { Settings } from "../../src/domain/config.js"
import { Config } from "../../src/services/Config.js"

/** Session, Observer, BrowserState, Debuggers, the knowledge store and Config, for `settings`. */
export const liveSessionLayer = (settings: Settings) =>
  Layer.mergeAll(
    Layer.merge(SessionAdapter.layer, ObserverAdapter.layer).pipe(Layer.provideMerge(Layer.merge(Browser.layer, DebuggerSession.layer))),
    KnowledgeFiles.layerFileSystem(settings.artifactsDir)
  ).pipe(Layer.provideMerge(Config.layer(settings)))
