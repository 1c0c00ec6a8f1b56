// The Recorder port (services/Recorder.ts) over the running session's recording (lifecycle/recording.ts):
// a call marks its group in that session's trace; without a recording, nothing happens.
import { Effect, Layer, Option } from "effect"
import { Recorder } from "../../services/Recorder.js"
import { BrowserState } from "./lifecycle/browser.js"
import { recordingOf } from "./lifecycle/recording.js"

/** The Recorder of the running session's recording. */
export const recorderLayer = Layer.effect(
  Recorder,
  Effect.map(BrowserState, (browser) => {
    const current = Effect.map(browser.current, Option.flatMap((live) => Option.fromNullable(recordingOf(live.context))))
    return Recorder.of({
      callStarted: (label) => Effect.flatMap(current, Option.match({ onNone: () => Effect.succeed(Effect.void), onSome: (recording) => recording.group(label) })),
      sensitive: (values) => Effect.flatMap(current, Option.match({ onNone: () => Effect.void, onSome: (recording) => recording.sensitive(values) }))
    })
  })
)
