// A place is the URL's origin with its path and hash: the same path on another port is another app's page.
// Prior knowledge keeps the apps apart, search still finds a page by the words of its path, and an index
// saved in the format before (places keyed by the path alone) is rebuilt from the step files, not misread.
import * as fs from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeFileStore } from "../../src/adapters/knowledge-files.js"
import { INDEX_FORMAT } from "../../src/adapters/knowledge-index.js"
import type { Observation } from "../../src/domain/observation.js"
import type { Catalog } from "../../src/knowledge/catalog.js"
import { pathOf, placeOf } from "../../src/knowledge/page.js"
import { priorKnowledge } from "../../src/knowledge/prior.js"
import { queryGroups } from "../../src/knowledge/text.js"
import { tempDir } from "../support/browser.js"
import { hoursAgo, NOW, priorActions, session, step } from "./fixtures.js"

const APPS = {
  alpha: { url: "http://127.0.0.1:4000/login", testIds: ["alpha-user", "alpha-go"], names: ["Member number", "Continue"] },
  beta: { url: "http://127.0.0.1:5000/login", testIds: ["beta-mail", "beta-send"], names: ["Email address", "Send link"] }
} as const

const screenOf = (app: keyof typeof APPS): Observation => ({
  state: { isLoaded: true, currentUrl: APPS[app].url, title: "Sign in", currentScreen: "unknown" },
  testIds: APPS[app].testIds.map((testId) => ({ testId, tag: "input", visible: true })),
  a11y: { nodes: APPS[app].names.map((name, i) => ({ ref: `e${i + 1}`, role: i === 0 ? "textbox" : "button", name })) }
})

/** Everything priorKnowledge offers to redo on the app's page, as text. */
const offeredOn = (catalog: Catalog, app: keyof typeof APPS) => {
  const prior = priorKnowledge(catalog, { currentSessionId: undefined, observation: screenOf(app), now: NOW }, priorActions)
  return JSON.stringify([prior?.suggestedNextActions ?? [], prior?.similarSteps ?? [], prior?.relatedSessions ?? []])
}

const expectAppsApart = (catalog: Catalog) => {
  const onAlpha = offeredOn(catalog, "alpha")
  expect(onAlpha).toContain("alpha-user")
  expect(onAlpha).not.toContain("beta-")
  const onBeta = offeredOn(catalog, "beta")
  expect(onBeta).toContain("beta-mail")
  expect(onBeta).not.toContain("alpha-")
  // The path's words still find both apps' steps.
  const found = catalog.search({ groups: queryGroups("login"), limit: 25, sessions: "all", filters: undefined, now: NOW })
  expect(new Set(found.map((row) => row.sessionId))).toEqual(new Set(["mm-alpha", "mm-beta"]))
}

const open = async (dir: string) => {
  const made = await Effect.runPromise(makeFileStore(dir, { refreshIntervalMs: 0 }))
  const catalog = await Effect.runPromise(made.store.catalog!)
  return { made, catalog, status: await Effect.runPromise(made.status) }
}

describe("places", () => {
  it("are origin, path and hash; the url field's words are the path's", () => {
    expect(placeOf("http://127.0.0.1:4000/login#top")).toBe("http://127.0.0.1:4000/login#top")
    expect(placeOf("http://127.0.0.1:4000/login")).not.toBe(placeOf("http://127.0.0.1:5000/login"))
    expect(pathOf("http://127.0.0.1:4000/login#top")).toBe("/login#top")
  })

  it("keep two apps on two ports with the same path apart, also through an index of the format before, which is rebuilt", async () => {
    const dir = tempDir()
    const first = await open(dir)
    for (const app of ["alpha", "beta"] as const) {
      const sessionId = `mm-${app}`
      const { url, testIds, names } = APPS[app]
      await Effect.runPromise(first.made.store.startSession(session(sessionId, { goal: `sign in to ${app}`, createdAt: hoursAgo(2) })))
      const facts = { sessionId, url, testIds: [...testIds], names: [...names] }
      await Effect.runPromise(first.made.store.recordStep(step({ ...facts, tool: "navigate", at: hoursAgo(1.9), input: { url } })))
      await Effect.runPromise(first.made.store.recordStep(step({ ...facts, tool: "type", at: hoursAgo(1.8), target: { testId: testIds[0] }, input: { text: "x" } })))
      await Effect.runPromise(first.made.store.recordStep(step({ ...facts, tool: "click", at: hoursAgo(1.7), target: { testId: testIds[1] } })))
    }
    // Steps are written (and indexed) off the call's path: flush before reading the index object directly.
    await Effect.runPromise(first.made.flush)
    expectAppsApart(first.catalog)
    await Effect.runPromise(first.made.saveIndex)
    const restored = await open(dir)
    expect(restored.status).toEqual({ restoredFromIndex: true, filesRead: 0 })
    expectAppsApart(restored.catalog)

    // The same index as the format before wrote it: not trusted, rebuilt from every step file, then saved in this format.
    const bytes = fs.readFileSync(first.made.indexFile)
    expect(bytes.readUInt32LE(8)).toBe(INDEX_FORMAT)
    bytes.writeUInt32LE(INDEX_FORMAT - 1, 8)
    fs.writeFileSync(first.made.indexFile, bytes)
    const rebuilt = await open(dir)
    expect(rebuilt.status).toEqual({ restoredFromIndex: false, filesRead: 6 })
    expect(rebuilt.catalog.size).toBe(6)
    expectAppsApart(rebuilt.catalog)
    await Effect.runPromise(rebuilt.made.saveIndex)
    expect(fs.readFileSync(first.made.indexFile).readUInt32LE(8)).toBe(INDEX_FORMAT)
    const after = await open(dir)
    expect(after.status).toEqual({ restoredFromIndex: true, filesRead: 0 })
    expectAppsApart(after.catalog)
  })
})
