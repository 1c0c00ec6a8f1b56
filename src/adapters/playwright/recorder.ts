// The Recorder port (services/Recorder.ts) over the running session's recording (lifecycle/recording.ts):
// a call marks its group in that session's trace; without a recording, nothing happens. The values typed
// into secret fields are kept by the session's context, recording or not, for what calls show.
import { Effect, Layer, Option } from "effect"
import type { BrowserContext } from "playwright"
import { makeTypedRedactor } from "../../domain/secrets.js"
import { Recorder } from "../../services/Recorder.js"
import { BrowserState } from "./lifecycle/browser.js"
import { recordingOf } from "./lifecycle/recording.js"

/** At most this many typed values a context: the latest are kept (a flow types a handful). */
const TYPED_LIMIT = 32

interface Typed {
  readonly values: ReadonlyArray<string>
  readonly scrub: (text: string) => string
}

/** The values typed into secret fields of each context, and their redactor (built once for each new value). */
const typedByContext = new WeakMap<BrowserContext, Typed>()

const remember = (context: BrowserContext, values: ReadonlyArray<string>) => {
  const known = typedByContext.get(context)?.values ?? []
  const fresh = values.filter((value) => !known.includes(value))
  if (fresh.length === 0) return
  const all = [...known, ...fresh].slice(-TYPED_LIMIT)
  typedByContext.set(context, { values: all, scrub: makeTypedRedactor(all) })
}

/** The Recorder of the running session's recording. */
export const recorderLayer = Layer.effect(
  Recorder,
  Effect.map(BrowserState, (browser) => {
    const current = Effect.map(browser.current, Option.flatMap((live) => Option.fromNullable(recordingOf(live.context))))
    return Recorder.of({
      callStarted: (label) => Effect.flatMap(current, Option.match({ onNone: () => Effect.succeed(Effect.void), onSome: (recording) => recording.group(label) })),
      sensitive: (values) =>
        Effect.flatMap(browser.current, (live) => {
          if (Option.isNone(live)) return Effect.void
          remember(live.value.context, values)
          const recording = recordingOf(live.value.context)
          return recording === undefined ? Effect.void : recording.sensitive(values)
        }),
      typedScrub: Effect.map(browser.current, Option.flatMap((live) => Option.fromNullable(typedByContext.get(live.context)?.scrub)))
    })
  })
)
