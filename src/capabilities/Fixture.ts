// The Fixture capability: named state presets a launch starts from (cookies and localStorage per origin).
// Without one, launch uses the config file's fixtures (inline storage states or storage-state JSON files).
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { StorageState } from "../domain/config.js"
import { InvalidConfig } from "../domain/errors.js"

export interface FixtureService {
  /** The preset names, for error messages and listings. */
  readonly names: Effect.Effect<ReadonlyArray<string>>
  /** The preset's state; None when no preset has that name. */
  readonly resolve: (name: string) => Effect.Effect<Option.Option<StorageState>, InvalidConfig>
}

export class Fixture extends Context.Tag("browser-workflow-mcp/capabilities/Fixture")<Fixture, FixtureService>() {
  static readonly layer = (service: FixtureService) => Layer.succeed(Fixture, service)
  /** Presets held in memory. */
  static readonly layerPresets = (presets: Readonly<Record<string, StorageState>>) => Layer.succeed(Fixture, fromEntries(presets, "."))
  /** Presets as storage states or paths of storage-state JSON files (relative to baseDir): the CLI's fixtures. */
  static readonly layerStorageStates = (entries: Readonly<Record<string, StorageState | string>>, baseDir: string) =>
    Layer.succeed(Fixture, fromEntries(entries, baseDir))
}

const readStorageState = (file: string, name: string) =>
  Effect.gen(function* () {
    const text = yield* Effect.tryPromise({
      try: () => fs.readFile(file, "utf8"),
      catch: () => new InvalidConfig({ source: file, detail: `fixture file for "${name}" cannot be read` })
    })
    const json = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: (error) => new InvalidConfig({ source: file, detail: String(error) }) })
    return yield* Schema.decodeUnknown(StorageState)(json).pipe(
      Effect.mapError((error) => new InvalidConfig({ source: file, detail: error.message }))
    )
  })

/** A Fixture service over inline states and storage-state files; files are read at each launch so edits apply. */
export const fromEntries = (entries: Readonly<Record<string, StorageState | string>>, baseDir: string): FixtureService => ({
  names: Effect.succeed(Object.keys(entries)),
  resolve: (name) => {
    const entry = Object.prototype.hasOwnProperty.call(entries, name) ? entries[name] : undefined
    if (entry === undefined) return Effect.succeed(Option.none())
    if (typeof entry !== "string") return Effect.succeed(Option.some(entry))
    return Effect.map(readStorageState(path.resolve(baseDir, entry), name), Option.some)
  }
})
