// The live browser: Session and Observer over one shared Playwright state.
import { Layer } from "effect"
import * as Browser from "./browser.js"
import * as ObserverAdapter from "./observer.js"
import * as SessionAdapter from "./session.js"

/** Session and Observer backed by a real Chromium; requires Config. */
export const layer = Layer.merge(SessionAdapter.layer, ObserverAdapter.layer).pipe(Layer.provide(Browser.layer))
