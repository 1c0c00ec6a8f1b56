// The session's storage state to a file under <artifacts>/storage-state/: atomic, owner-only, never
// replacing a file unless asked, and never shown or logged (it holds the session's cookies).
import * as path from "node:path"
import { Effect } from "effect"
import { InvalidInput, StorageStateFailed } from "../../../domain/errors.js"
import type { SessionStorage } from "../../../services/Session.js"
import { createFileAtomic, writeFileAtomic } from "../../files.js"
import { BrowserState } from "../lifecycle/browser.js"
import { firstLine } from "../calls.js"

/** A storage-state file name: a plain name, never a path (no separators, no leading dot). */
export const STORAGE_STATE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/** Thrown by createFileAtomic's renaming callback: the name is taken and must not be replaced. */
class NameTaken extends Error {}

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const dir = path.resolve(browser.settings.artifactsDir, "storage-state")

  const saveStorageState: SessionStorage["saveStorageState"] = ({ name, overwrite }) =>
    Effect.gen(function* () {
      const base = name.replace(/\.json$/i, "")
      const file = path.join(dir, `${base}.json`)
      // Fail closed even if a caller skipped the tool's schema.
      if (!STORAGE_STATE_NAME.test(base) || path.dirname(file) !== dir) {
        return yield* new InvalidInput({
          field: "name",
          problem: "must be a plain file name: letters, digits, '.', '_' and '-', starting with a letter or digit."
        })
      }
      const live = yield* browser.live
      const state = yield* Effect.tryPromise({
        try: () => live.context.storageState(),
        catch: (error) => new StorageStateFailed({ detail: `the browser did not give it: ${firstLine(error)}` })
      })
      const data = JSON.stringify(state, null, 2) + "\n"
      const written = yield* Effect.tryPromise({
        try: (): Promise<boolean> =>
          overwrite
            ? writeFileAtomic(file, data, { within: browser.settings.artifactsDir }).then(() => true)
            : createFileAtomic(file, data, () => { throw new NameTaken() }, { within: browser.settings.artifactsDir }).then(
                () => true,
                (error: unknown) => {
                  if (error instanceof NameTaken) return false
                  throw error
                }
              ),
        catch: (error) => new StorageStateFailed({ detail: `cannot write ${file}: ${firstLine(error)}` })
      })
      if (!written) {
        return yield* new InvalidInput({
          field: "name",
          problem: `storage-state/${base}.json already exists; pass overwrite: true to replace it, or choose another name.`
        })
      }
      return { path: file, cookies: state.cookies.length, origins: state.origins.length }
    })

  const storage: SessionStorage = { saveStorageState }
  return storage
})
