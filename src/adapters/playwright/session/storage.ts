// The session's storage state to a file under <artifacts>/storage-state/: atomic, owner-only, never
// replacing a file unless asked, and never shown or logged (it holds the session's cookies).
import * as path from "node:path"
import { Effect, Ref } from "effect"
import type { BrowserContext, Cookie } from "playwright"
import { InvalidInput, StorageStateFailed } from "../../../domain/errors.js"
import type { CookieInfo, SessionStorage } from "../../../services/Session.js"
import { createFileAtomic, writeFileAtomic } from "../../files.js"
import { BrowserState } from "../lifecycle/browser.js"
import { firstLine } from "../calls.js"
import { devtoolsOf } from "../page-eval.js"
import { emulationOf } from "./emulation-state.js"

/** A storage-state file name: a plain name, never a path (no separators, no leading dot). */
export const STORAGE_STATE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/** A cookie as mm_storage lists it: flags only when set, no expiry for a session cookie. */
const cookieInfo = (cookie: Cookie): CookieInfo => ({
  name: cookie.name,
  value: cookie.value,
  domain: cookie.domain,
  path: cookie.path,
  ...(cookie.expires > 0 ? { expires: Math.round(cookie.expires) } : {}),
  ...(cookie.httpOnly ? { httpOnly: true as const } : {}),
  ...(cookie.secure ? { secure: true as const } : {}),
  ...(cookie.sameSite !== "Lax" ? { sameSite: cookie.sameSite } : {})
})

/** The origins the session's frames visited, its open tabs are on, and its storage state names (localStorage). */
const visitedOrigins = (context: BrowserContext) =>
  Effect.gen(function* () {
    const visited = emulationOf(context)
    const origins = new Set(visited === undefined ? [] : yield* Ref.get(visited.origins))
    for (const page of context.pages()) {
      for (const frame of page.frames()) if (/^https?:/i.test(frame.url())) origins.add(new URL(frame.url()).origin)
    }
    const state = yield* Effect.promise(() => context.storageState().catch(() => ({ origins: [] as ReadonlyArray<{ origin: string }> })))
    for (const entry of state.origins) origins.add(entry.origin)
    return [...origins].sort()
  })

/** What Chromium keeps per origin beside cookies; sessionStorage lives per tab and is cleared in each open one. */
const ORIGIN_STORAGE = "local_storage,indexeddb,cache_storage,service_workers,file_systems,websql"

const clearOrigins = async (context: BrowserContext, origins: ReadonlyArray<string>) => {
  const pages = context.pages()
  if (pages.length === 0 || origins.length === 0) return
  const devtools = await devtoolsOf(pages[0]!)
  for (const origin of origins) await devtools.send("Storage.clearDataForOrigin", { origin, storageTypes: ORIGIN_STORAGE })
  for (const page of pages) {
    const tab = await devtoolsOf(page).catch(() => undefined)
    if (tab === undefined) continue
    for (const origin of origins) {
      await tab.send("DOMStorage.clear", { storageId: { securityOrigin: origin, isLocalStorage: false } }).catch(() => undefined)
    }
  }
}

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

  const cookies: SessionStorage["cookies"] = (origin) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const found = yield* Effect.tryPromise({
        try: () => (origin === undefined ? live.context.cookies() : live.context.cookies(origin)),
        catch: (error) => new StorageStateFailed({ detail: firstLine(error), during: "read" })
      })
      return found.map(cookieInfo)
    })

  const clearStorage: SessionStorage["clearStorage"] = (options) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const fail = (error: unknown) => new StorageStateFailed({ detail: firstLine(error), during: "clear" })
      let cookieCount = 0
      if (options.cookies) {
        cookieCount = yield* Effect.tryPromise({
          try: async () => {
            const before = options.origin === undefined ? await live.context.cookies() : await live.context.cookies(options.origin)
            if (options.origin === undefined) await live.context.clearCookies()
            else for (const cookie of before) await live.context.clearCookies({ name: cookie.name, domain: cookie.domain, path: cookie.path })
            return before.length
          },
          catch: fail
        })
      }
      if (!options.storage) return { cookies: cookieCount, origins: [] }
      const origins = options.origin !== undefined ? [options.origin] : yield* visitedOrigins(live.context)
      yield* Effect.tryPromise({ try: () => clearOrigins(live.context, origins), catch: fail })
      return { cookies: cookieCount, origins }
    })

  const storage: SessionStorage = { saveStorageState, cookies, clearStorage }
  return storage
})
