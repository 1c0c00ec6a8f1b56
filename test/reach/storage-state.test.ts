// Storage state: mm_save_storage_state writes cookies and localStorage under <artifacts>/storage-state/
// (owner-only, never over a file unless asked, never a path), and --storage-state starts a new session
// from that file. A persistent --user-data-dir keeps its state across cleanup and restarts.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { persistentProfile, PROFILE_PREFIX, removeStaleProfiles } from "../../src/adapters/playwright/lifecycle/profiles.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { navigate } from "../../src/tools/navigation.js"
import { cleanup, launch } from "../../src/tools/session.js"
import { listTabs } from "../../src/tools/tabs.js"
import { saveStorageState } from "../../src/tools/storage.js"
import { uploadFile } from "../../src/tools/gestures.js"
import { savePdf } from "../../src/tools/assertions.js"
import { screenshot } from "../../src/tools/screenshot.js"
import { html, pageServer, tempDir, testSettings } from "../support/browser.js"
import { call, memoryPages, textOf, withLive } from "./helpers.js"

/** A page that reads back any file it is handed: what a hostile page would send home. */
const uploadPage = {
  "/upload": html(
    "Upload",
    `<input type="file" data-testid="file"><pre data-testid="read">nothing</pre>
    <script>
      document.querySelector('[data-testid=file]').addEventListener('change', async (event) => {
        document.querySelector('[data-testid=read]').textContent = 'read ' + (await event.target.files[0].text())
      })
    </script>`
  )
}

const open = (url: string) =>
  Effect.gen(function* () {
    const envelope = yield* call(navigate, { screen: "url", url })
    expect(envelope.error).toBeUndefined()
  })

describe("storage state", () => {
  it.live("a saved state (a cookie and a localStorage value) starts a new session with --storage-state", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const app = yield* pageServer(memoryPages)
        const first = testSettings()
        const saved = yield* withLive(
          first,
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* open(`${app.url}/remember`)
            expect(yield* textOf("done")).toBe("remembered")
            const envelope = yield* call(saveStorageState, { name: "signed-in" })
            expect(envelope.error).toBeUndefined()
            expect(envelope.result).toEqual({
              path: path.join(first.artifactsDir, "storage-state", "signed-in.json"),
              cookies: 1,
              origins: 1
            })

            // Taken names, paths and dot-names are refused; the file is replaced only when asked.
            const again = yield* call(saveStorageState, { name: "signed-in" })
            expect(again.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "name" } })
            expect(again.error?.message).toContain("overwrite")
            for (const name of ["../outside", "a/b", ".hidden", ""]) {
              const bad = yield* call(saveStorageState, { name })
              expect(bad.error, name).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "name" } })
            }
            expect((yield* call(saveStorageState, { name: "signed-in", overwrite: true })).ok).toBe(true)

            // The step memory has the name, never the state.
            const store = yield* KnowledgeStore
            const sessionId = (yield* store.sessions)[0]!.sessionId
            const recorded = JSON.stringify(yield* store.steps(sessionId))
            expect(recorded).toContain("signed-in")
            expect(recorded).not.toContain("s3cret-cookie")

            // The saved state is never handed to a page: not by its path, not through a link to it.
            const pages = yield* pageServer(uploadPage)
            yield* open(`${pages.url}/upload`)
            fs.symlinkSync(path.join(first.artifactsDir, "storage-state"), path.join(first.artifactsDir, "innocent"))
            for (const paths of [["storage-state/signed-in.json"], [envelope.result.path as string], ["innocent/signed-in.json"]]) {
              const upload = yield* call(uploadFile, { testId: "file", paths })
              expect(upload.error, paths[0]).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "paths" } })
              expect(upload.error?.message).toContain("never uploaded")
            }
            expect(yield* textOf("read")).toBe("nothing")
            fs.rmSync(path.join(first.artifactsDir, "innocent"))
            return envelope.result.path as string
          })
        )
        expect(fs.statSync(saved).mode & 0o777).toBe(0o600)
        expect(fs.readdirSync(path.dirname(saved))).toEqual(["signed-in.json"])
        const state = JSON.parse(fs.readFileSync(saved, "utf8"))
        expect(state.cookies.map((cookie: { name: string }) => cookie.name)).toEqual(["session"])
        expect(state.origins[0].localStorage).toEqual([{ name: "theme", value: "dark" }])

        yield* withLive(
          testSettings({ storageState: saved }),
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            // Applying the state leaves no tab and no notice behind.
            const tabs = yield* call(listTabs, {})
            expect(tabs.result.total).toBe(1)
            expect(tabs.notices).toBeUndefined()
            yield* open(`${app.url}/recall`)
            expect(yield* textOf("cookie")).toBe("cookie=session=s3cret-cookie")
            expect(yield* textOf("theme")).toBe("theme=dark")
          })
        )
      })
    ))

  it.live("a symlinked storage-state/, screenshots/ or pdf/ is never written through: the tool fails, nothing lands where the link leads", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const app = yield* pageServer(memoryPages)
        const settings = testSettings()
        const elsewhere = tempDir("bwm-link-target-")
        fs.mkdirSync(settings.artifactsDir, { recursive: true })
        for (const subdirectory of ["storage-state", "screenshots", "pdf"]) fs.symlinkSync(elsewhere, path.join(settings.artifactsDir, subdirectory))
        yield* withLive(
          settings,
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* open(`${app.url}/remember`)
            const saved = yield* call(saveStorageState, { name: "signed-in" })
            expect(saved.error?.code).toBe("MM_STORAGE_STATE_FAILED")
            expect(saved.error?.message).toContain("symbolic link")
            const shot = yield* call(screenshot, { name: "page" })
            expect(shot.error?.code).toBe("MM_SCREENSHOT_FAILED")
            expect(shot.error?.message).toContain("symbolic link")
            const pdf = yield* call(savePdf, { name: "page" })
            expect(pdf.error?.message).toContain("symbolic link")
          })
        )
        expect(fs.readdirSync(elsewhere)).toEqual([])
      })
    ))

  it.live("a storage-state file that is missing or not a state fails the launch naming --storage-state", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const notState = path.join(dir, "not-state.json")
      fs.writeFileSync(notState, JSON.stringify({ cookies: "no" }))
      for (const file of [path.join(dir, "missing.json"), notState]) {
        const envelope = yield* withLive(testSettings({ storageState: file }), call(launch, {}))
        expect(envelope.error?.code).toBe("MM_INVALID_CONFIG")
        expect(envelope.error?.message).toContain("--storage-state")
        expect(envelope.error?.message).not.toContain("\n")
      }
    }))

  it.live("a --user-data-dir profile keeps localStorage across cleanup and a new server, and is never swept", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const app = yield* pageServer(memoryPages)
        const profile = path.join(tempDir(), "my-profile")
        const settings = testSettings({ userDataDir: profile })
        yield* withLive(
          settings,
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* open(`${app.url}/remember`)
            expect((yield* call(cleanup, {})).result).toEqual({ cleanedUp: true })
            expect(fs.existsSync(path.join(profile, "Default"))).toBe(true)
            // A relaunch on the same server finds it.
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* open(`${app.url}/recall`)
            expect(yield* textOf("theme")).toBe("theme=dark")
          })
        )
        expect(fs.existsSync(profile)).toBe(true)
        // A new server (a new layer) finds it too.
        yield* withLive(
          settings,
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* open(`${app.url}/recall`)
            expect(yield* textOf("theme")).toBe("theme=dark")
          })
        )
        expect(fs.existsSync(profile)).toBe(true)
      })
    ))

  it.live("a profile in use by another browser, or named like a temporary one, is refused; the sweep keeps the configured one", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const profile = path.join(tempDir(), "shared-profile")
        const settings = testSettings({ userDataDir: profile })
        yield* withLive(
          settings,
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            const second = yield* withLive(settings, call(launch, {}))
            expect(second.error).toMatchObject({ code: "MM_LAUNCH_FAILED", details: { reason: "ProfileInUse" } })
            expect(second.error?.message).toContain("--user-data-dir")
          })
        )

        const root = tempDir("bwm-sweep-root-")
        const lookalike = path.join(root, `${PROFILE_PREFIX}mine`)
        const refused = yield* Effect.flip(persistentProfile(lookalike, root))
        expect(refused.reason).toBe("ProfileInUse")
        // An old, unmarked profile-like directory goes in a sweep, unless it is the configured profile.
        fs.mkdirSync(lookalike)
        const old = new Date(Date.now() - 10 * 60_000)
        fs.utimesSync(lookalike, old, old)
        expect(yield* removeStaleProfiles(root, lookalike)).toEqual([])
        expect(fs.existsSync(lookalike)).toBe(true)
        expect(yield* removeStaleProfiles(root)).toEqual([lookalike])
      })
    ))
})
