// The live browser: Session and Observer over one shared Playwright state.
import { Effect, Layer } from "effect"
import { Observer } from "../../services/Observer.js"
import * as Browser from "./lifecycle/browser.js"
import * as DebuggerGuard from "./debugger-guard.js"
import * as DebuggerSession from "./devtools/debugger-session.js"
import { recorderLayer } from "./recorder.js"
import * as ObserverAdapter from "./observer/observer.js"
import * as SessionAdapter from "./session/session.js"

/** The Observer, answering from what a paused page can still tell while its JavaScript is paused in the debugger. */
const observer = Layer.effect(Observer, Effect.flatMap(ObserverAdapter.make, DebuggerGuard.observer))

/** Session and Observer backed by a real Chromium, and the Recorder of its recordings; requires Config. */
export const layer = Layer.mergeAll(SessionAdapter.layer, observer, recorderLayer).pipe(Layer.provide(Layer.merge(Browser.layer, DebuggerSession.layer)))
