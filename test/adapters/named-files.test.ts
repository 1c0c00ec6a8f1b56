// A session's named files (screenshots): it replaces only a file it wrote under that name; eight sessions
// writing one name at the same moment get eight files, each with its own bytes; a file someone else left
// there, or put in place of the session's own, is never replaced; numbers count from the wanted name.
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "@effect/vitest"
import { makeNamedFiles, writeNamedFile } from "../../src/adapters/playwright/session/named-files.js"
import { tempDir } from "../support/browser.js"

const setup = () => {
  const artifacts = tempDir("bwm-named-")
  return { artifacts, wanted: path.join(artifacts, "screenshots", "page.png") }
}

/** A session: its named files and its owner object (the hold --output-max-mb spares). */
const session = Effect.map(makeNamedFiles, (files) => ({ files, owner: {} }))

const write = (who: Effect.Effect.Success<typeof session>, wanted: string, text: string, artifacts: string) =>
  writeNamedFile(who.files, who.owner, wanted, Buffer.from(text), artifacts, (error) => error)

const visible = (dir: string) => fs.readdirSync(dir).filter((name) => !name.startsWith(".")).sort()

describe("a session's named files", () => {
  it.effect("eight sessions writing one name at once get eight files, each its own; each replaces only its own", () =>
    Effect.gen(function* () {
      const { artifacts, wanted } = setup()
      const sessions = yield* Effect.all(Array.from({ length: 8 }, () => session))
      const placed = yield* Effect.forEach(sessions, (who, index) => write(who, wanted, `session ${index}`, artifacts), { concurrency: "unbounded" })
      expect(new Set(placed).size).toBe(8)
      placed.forEach((file, index) => expect(fs.readFileSync(file, "utf8")).toBe(`session ${index}`))
      expect(visible(path.dirname(wanted))).toEqual(["page-2.png", "page-3.png", "page-4.png", "page-5.png", "page-6.png", "page-7.png", "page-8.png", "page.png"])

      // Again, all at once: each replaces the file it was given, nothing else.
      const again = yield* Effect.forEach(sessions, (who, index) => write(who, wanted, `again ${index}`, artifacts), { concurrency: "unbounded" })
      expect(again).toEqual(placed)
      placed.forEach((file, index) => expect(fs.readFileSync(file, "utf8")).toBe(`again ${index}`))
      expect(visible(path.dirname(wanted))).toHaveLength(8)
    }))

  it.effect("a file the session did not write is never replaced: left before it, or put in place of its own", () =>
    Effect.gen(function* () {
      const { artifacts, wanted } = setup()
      fs.mkdirSync(path.dirname(wanted), { recursive: true })
      fs.writeFileSync(wanted, "yours")
      const who = yield* session
      const first = yield* write(who, wanted, "one", artifacts)
      expect(path.basename(first)).toBe("page-2.png")
      expect(fs.readFileSync(wanted, "utf8")).toBe("yours")

      // Its own file removed and another put there: that one stays, the session gets a free name.
      fs.rmSync(first)
      fs.writeFileSync(first, "another's")
      const second = yield* write(who, wanted, "two", artifacts)
      expect(path.basename(second)).toBe("page-3.png")
      expect(fs.readFileSync(first, "utf8")).toBe("another's")
      // From then on the session replaces that one.
      expect(yield* write(who, wanted, "three", artifacts)).toBe(second)
      expect(fs.readFileSync(second, "utf8")).toBe("three")

      // A name that looks numbered counts from itself: page-2 taken gives page-2-2, never page-3.
      const numbered = yield* write(yield* session, path.join(path.dirname(wanted), "page-2.png"), "four", artifacts)
      expect(path.basename(numbered)).toBe("page-2-2.png")
    }))
})
