// A step record as the bytes of its file. Encoding never loses the step: a field the schema refuses
// (a value some producer got wrong, such as a tab id the observer could not name) is left out, the record
// says which (`dropped`), and the caller logs the field's path, never its value. Values JSON has no form
// for (a bigint) are written as text rather than failing the write.
import { ParseResult, Schema } from "effect"
import { StepRecord } from "../domain/knowledge.js"

export interface EncodedStep {
  readonly text: string
  /** The step as written (without the fields left out), for the index. */
  readonly kept: StepRecord
  /** Paths of the fields left out (`observation.state.tabId`), each with the kind of issue; empty when none were. */
  readonly dropped: ReadonlyArray<{ readonly path: string; readonly issue: string }>
}

const encodeEither = Schema.encodeEither(StepRecord)

/** A path as text: `observation.a11y.nodes[3].name`. */
export const pathText = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`)).join("")

/** A copy of `value` without what `path` points at (an array loses the element, an object the key). */
const without = (value: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  const [head, ...rest] = path
  if (head === undefined) return undefined
  if (Array.isArray(value)) {
    const index = Number(head)
    if (!Number.isInteger(index) || index < 0 || index >= value.length) return value
    return rest.length === 0 ? value.filter((_, at) => at !== index) : value.map((item, at) => (at === index ? without(item, rest) : item))
  }
  if (typeof value !== "object" || value === null || !Object.prototype.hasOwnProperty.call(value, head)) return value
  const copy: Record<PropertyKey, unknown> = { ...(value as Record<PropertyKey, unknown>) }
  if (rest.length === 0) delete copy[head]
  else copy[head] = without(copy[head], rest)
  return copy
}

/** Fields that identify the step: a record without them is no record, so an issue there drops the optional parts instead. */
const ESSENTIAL = new Set(["schemaVersion", "timestamp", "sessionId", "tool", "timing", "outcome", "labels"])

/** JSON text of an encoded record: bigints as text (JSON has no form for them). */
const jsonText = (encoded: unknown): string => {
  try {
    return JSON.stringify(encoded, null, 2)
  } catch {
    return JSON.stringify(encoded, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value), 2)
  }
}

/** The step as its file's text, leaving out each field the schema refuses (at most a few rounds, then the bare step). */
export const encodeStep = (step: StepRecord): EncodedStep => {
  const dropped: Array<{ readonly path: string; readonly issue: string }> = []
  let current: unknown = step
  for (let round = 0; round < 6; round++) {
    const encoded = encodeEither(current as StepRecord)
    if (encoded._tag === "Right") {
      if (dropped.length === 0) return { text: jsonText(encoded.right), kept: step, dropped }
      const paths = dropped.map((entry) => entry.path)
      return { text: jsonText({ ...encoded.right, dropped: paths }), kept: { ...(current as StepRecord), dropped: paths }, dropped }
    }
    // The deepest issues only: an optional field's union also names the field itself ("expected undefined").
    const issues = ParseResult.ArrayFormatter.formatErrorSync(encoded.left)
    const texts = issues.map((issue) => pathText(issue.path))
    const deepest = new Map<string, (typeof issues)[number]>()
    issues.forEach((issue, index) => {
      const text = texts[index]!
      const covered = texts.some((other) => other !== text && (other.startsWith(`${text}.`) || other.startsWith(`${text}[`)))
      if (!covered && !deepest.has(text)) deepest.set(text, issue)
    })
    let progressed = false
    for (const [text, issue] of deepest) {
      // A required field that cannot stay takes what holds it (a node, a target) along.
      const path = issue._tag === "Missing" || dropped.some((entry) => entry.path === text) ? issue.path.slice(0, -1) : issue.path
      // A refused essential field cannot go: its optional neighbours (tool.target, tool.input's value) can.
      if (path.length === 0 || (ESSENTIAL.has(String(path[0])) && path.length < 2)) continue
      dropped.push({ path: pathText(path), issue: issue._tag })
      current = without(current, path)
      progressed = true
    }
    if (!progressed) break
  }
  // The bare step: who, when, which tool, how it went.
  const bare: StepRecord = {
    schemaVersion: 1,
    timestamp: String(step.timestamp),
    sessionId: String(step.sessionId),
    tool: { name: String(step.tool?.name), input: {} },
    timing: { durationMs: Number.isFinite(step.timing?.durationMs) ? step.timing.durationMs : 0 },
    outcome: step.outcome?.ok === true ? { ok: true } : { ok: false, error: { code: String(step.outcome?.error?.code ?? "MM_INTERNAL_ERROR"), message: String(step.outcome?.error?.message ?? "") } },
    labels: Array.isArray(step.labels) ? step.labels.filter((label): label is string => typeof label === "string") : []
  }
  dropped.push({ path: "(all but the tool, time and outcome)", issue: "Unencodable" })
  const paths = dropped.map((entry) => entry.path)
  return { text: jsonText({ ...Schema.encodeSync(StepRecord)(bare), dropped: paths }), kept: { ...bare, dropped: paths }, dropped }
}
