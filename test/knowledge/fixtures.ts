// Step and session records for knowledge tests, plus a seeded random store generator shared with the bench.
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Schema } from "effect"
import { stepStamp } from "../../src/adapters/knowledge-files.js"
import { labelsFor, SessionMetadata, StepRecord, type StepTarget } from "../../src/domain/knowledge.js"
import { builtinTools } from "../../src/tools/registry.js"

/** The step kinds a built-in tool's definition gives (none for a name no tool has). */
export const stepKindsOf = (tool: string) => builtinTools.find((definition) => definition.name === tool)?.stepKinds ?? []

/** What prior knowledge makes of a recorded tool, as the built-in definitions say. */
export const priorActions = (tool: string) => builtinTools.find((definition) => definition.name === tool)?.prior

export const NOW = Date.parse("2026-11-22T12:00:00.000Z")
export const hoursAgo = (hours: number) => new Date(NOW - hours * 3_600_000).toISOString()

export const session = (sessionId: string, extra: Partial<SessionMetadata> = {}): SessionMetadata => ({
  schemaVersion: 1,
  sessionId,
  createdAt: hoursAgo(1),
  flowTags: [],
  tags: [],
  launch: { stateMode: "default" },
  ...extra
})

export interface StepSpec {
  readonly sessionId: string
  readonly tool: string
  readonly at?: string
  readonly target?: StepTarget
  readonly ok?: boolean
  readonly screen?: string
  readonly url?: string
  readonly testIds?: ReadonlyArray<string>
  readonly names?: ReadonlyArray<string>
  readonly input?: Record<string, unknown>
  readonly textRedacted?: boolean
  readonly textLength?: number
}

export const step = (spec: StepSpec): StepRecord => {
  const ok = spec.ok ?? true
  return {
    schemaVersion: 1,
    timestamp: spec.at ?? hoursAgo(1),
    sessionId: spec.sessionId,
    tool: {
      name: spec.tool,
      input: spec.input ?? {},
      ...(spec.target ? { target: spec.target } : {}),
      ...(spec.textRedacted !== undefined ? { textRedacted: spec.textRedacted } : {}),
      ...(spec.textLength !== undefined ? { textLength: spec.textLength } : {})
    },
    timing: { durationMs: 5 },
    outcome: ok ? { ok: true } : { ok: false, error: { code: "MM_TARGET_NOT_FOUND", message: "not found" } },
    observation: {
      state: { isLoaded: true, currentUrl: spec.url ?? "http://127.0.0.1:3000/app#/home", title: "t", currentScreen: spec.screen ?? "unknown" },
      testIds: (spec.testIds ?? []).map((testId) => ({ testId, tag: "button", visible: true })),
      a11y: { nodes: (spec.names ?? []).map((name, index) => ({ ref: `e${index + 1}`, role: "button", name })) }
    },
    labels: labelsFor(stepKindsOf(spec.tool), spec.target, ok)
  }
}

/** Deterministic pseudo-random numbers (mulberry32), so generated stores are the same on every run. */
export const random = (seed: number) => () => {
  seed |= 0
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const SCREENS = ["home", "login", "send", "confirm-transaction", "settings", "receive", "swap", "unlock", "onboarding", "accounts"]
const WORDS = ["send", "amount", "recipient", "confirm", "cancel", "password", "unlock", "network", "token", "account", "swap", "approve", "reject", "settings", "max", "next", "back", "import", "export", "copy"]
const GOALS = ["send eth to a friend", "unlock the wallet", "swap tokens", "approve a connection", "change network settings"]
const TOOLS = ["click", "type", "wait_for", "navigate", "describe_screen", "get_text"]

/** A synthetic store: `steps` steps spread over `sessions` sessions within the last `hours` hours. */
export const syntheticStore = (steps: number, sessions: number, seed = 7, hours = 40) => {
  const next = random(seed)
  const pick = <A>(items: ReadonlyArray<A>) => items[Math.floor(next() * items.length)]!
  const metadata: Array<SessionMetadata> = []
  for (let i = 0; i < sessions; i++) {
    metadata.push(
      session(`mm-s${i.toString().padStart(5, "0")}`, {
        goal: pick(GOALS),
        flowTags: [pick(["send", "swap", "unlock", "connect"])],
        tags: [pick(["smoke", "regression", "nightly"])],
        createdAt: hoursAgo(hours)
      })
    )
  }
  const records: Array<StepRecord> = []
  for (let i = 0; i < steps; i++) {
    const owner = metadata[i % sessions]!
    const screen = pick(SCREENS)
    const tool = pick(TOOLS)
    const word = pick(WORDS)
    const target: StepTarget | undefined =
      tool === "click" || tool === "type" || tool === "wait_for"
        ? next() < 0.7
          ? { testId: `${word}-${pick(["button", "input", "link"])}` }
          : { a11yRef: `e${1 + Math.floor(next() * 30)}`, a11yHint: { role: "button", name: `${word} ${pick(WORDS)}` } }
        : undefined
    // Some targets never work (a button that is not there): they end up on avoid lists.
    const works = next() > 0.15 && !(target?.testId?.startsWith("copy-") ?? false)
    records.push(
      step({
        sessionId: owner.sessionId,
        tool,
        at: new Date(NOW - hours * 3_600_000 + (i / steps) * hours * 3_600_000).toISOString(),
        ...(target ? { target } : {}),
        ok: works,
        screen,
        url: `http://127.0.0.1:8080/home.html#/${screen}`,
        testIds: Array.from({ length: 10 }, () => `${pick(WORDS)}-${pick(["button", "input", "label"])}`),
        names: Array.from({ length: 12 }, () => `${pick(WORDS)} ${pick(WORDS)}`)
      })
    )
  }
  return { sessions: metadata, steps: records }
}

/**
 * Writes a synthetic store as step files under `<artifactsDir>/llm-knowledge` with plain fs, in parallel
 * batches (the store's own writer is measured separately). Returns what was written, steps in file order.
 */
export const writeSyntheticStore = async (artifactsDir: string, steps: number, sessions: number, seed = 7) => {
  const root = path.join(artifactsDir, "llm-knowledge")
  const store = syntheticStore(steps, sessions, seed)
  const encodeStep = Schema.encodeSync(StepRecord)
  const encodeSession = Schema.encodeSync(SessionMetadata)
  for (const metadata of store.sessions) await fs.mkdir(path.join(root, metadata.sessionId, "steps"), { recursive: true })
  await Promise.all(
    store.sessions.map((metadata) => fs.writeFile(path.join(root, metadata.sessionId, "session.json"), JSON.stringify(encodeSession(metadata), null, 2)))
  )
  const batch = 256
  for (let i = 0; i < store.steps.length; i += batch) {
    await Promise.all(
      store.steps.slice(i, i + batch).map((record, offset) =>
        fs.writeFile(
          path.join(root, record.sessionId, "steps", `${stepStamp(Date.parse(record.timestamp))}-${String(i + offset).padStart(6, "0")}-${record.tool.name}.json`),
          JSON.stringify(encodeStep(record), null, 2)
        )
      )
    )
  }
  return store
}

const decodeStepFile = Schema.decodeUnknownSync(StepRecord)
const decodeSessionFile = Schema.decodeUnknownSync(SessionMetadata)

/** Every session and step on disk, read the plain way: sessions by directory, steps in file-name order. */
export const readStoreFiles = async (artifactsDir: string) => {
  const root = path.join(artifactsDir, "llm-knowledge")
  const sessions: Array<SessionMetadata> = []
  const steps: Array<StepRecord> = []
  for (const dir of (await fs.readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))) {
    const metadata = await fs.readFile(path.join(root, dir.name, "session.json"), "utf8").catch(() => undefined)
    if (metadata !== undefined) sessions.push(decodeSessionFile(JSON.parse(metadata)))
    const files = (await fs.readdir(path.join(root, dir.name, "steps")).catch(() => [] as Array<string>)).filter((file) => file.endsWith(".json") && !file.startsWith(".")).sort()
    for (const file of files) steps.push(decodeStepFile(JSON.parse(await fs.readFile(path.join(root, dir.name, "steps", file), "utf8"))))
  }
  return { sessions, steps }
}
