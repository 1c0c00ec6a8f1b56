// The steps of the index as columns: typed arrays of ids into shared tables of strings, tools, targets and
// label sets, so 100,000 steps cost a few megabytes and save and load as plain arrays.
import type { StepTarget } from "../domain/knowledge.js"
import { describeStepTarget } from "./entry.js"
import { growFloat64, growInt32, growUint8 } from "./postings.js"
import { type Durable, durableTarget, shownTargetOf } from "./targets.js"

/** A distinct step target, with what queries derive from it computed once. */
export interface TargetInfo {
  readonly target: StepTarget
  /** `describeStepTarget`, or undefined when it has none. */
  readonly description: string | undefined
  readonly durable: Durable | undefined
  /**
   * How prior knowledge names the target to an agent: its description, but for a target the agent gave as a
   * ref alone (page-local, meaningless in another session) the durable form recorded for its element, and
   * undefined when it has none.
   */
  readonly shown: string | undefined
  /** Small integer per distinct `shown` (-1 for none). */
  readonly shownId: number
}

/** Strings stored once, each with a small integer id; -1 stands for "none". */
export class StringTable {
  private lookup: Map<string, number> | undefined

  constructor(readonly values: Array<string> = []) {}

  private get ids(): Map<string, number> {
    if (this.lookup === undefined) this.lookup = new Map(this.values.map((value, id) => [value, id]))
    return this.lookup
  }

  id(value: string | undefined): number {
    if (value === undefined) return -1
    let id = this.ids.get(value)
    if (id === undefined) {
      id = this.values.length
      this.ids.set(value, id)
      this.values.push(value)
    }
    return id
  }

  at(id: number): string | undefined {
    return id < 0 ? undefined : this.values[id]
  }

  /** The id of a stored string without storing it: -1 when unknown. */
  find(value: string): number {
    return this.ids.get(value) ?? -1
  }
}

/** Targets with a value this long get no suggestion: nobody replays a selector of a megabyte. */
const DURABLE_CHARS = 1_000

const targetTooLong = (target: StepTarget) =>
  [target.testId, target.selector, target.within, target.a11yHint?.name].some((value) => value !== undefined && value.length > DURABLE_CHARS)

/** The steps of the index, column by column: a few bytes per step, strings in shared tables. */
export class StepTable {
  size = 0
  session = new Int32Array(0)
  time = new Float64Array(0)
  ok = new Uint8Array(0)
  /** 1 for a step that was replaced (its session was read again from its files): queries skip it. */
  dead = new Uint8Array(0)
  tool = new Int32Array(0)
  /** Index into `targets`, or -1. */
  target = new Int32Array(0)
  /** Ids in `strings`, or -1. */
  screen = new Int32Array(0)
  url = new Int32Array(0)
  errorCode = new Int32Array(0)
  /** Index into `labelSets`. */
  labels = new Int32Array(0)
  /** Timestamps that are not the ISO form of their time (all others are computed from `time`). */
  readonly timestamps = new Map<number, string>()
  deadCount = 0
  readonly strings: StringTable
  readonly tools: Array<string>
  /** Distinct targets; `target` holds indexes into it. */
  readonly targets: Array<StepTarget>
  readonly labelSets: Array<ReadonlyArray<string>>
  private readonly toolIds: Map<string, number>
  /** What queries derive from each target, computed on first need: a restored index does not redo 10,000 of them. */
  private readonly infos: Array<TargetInfo | undefined> = []
  /** Target (as JSON) to index; built on first need after a load. */
  private targetIds: Map<string, number> | undefined
  private readonly shownIds = new Map<string, number>()
  private readonly labelSetIds: Map<string, number>

  constructor(
    strings: Array<string> = [],
    tools: Array<string> = [],
    labelSets: Array<ReadonlyArray<string>> = [],
    targets: ReadonlyArray<StepTarget> = []
  ) {
    this.strings = new StringTable(strings)
    this.tools = tools
    this.toolIds = new Map(tools.map((tool, id) => [tool, id]))
    this.labelSets = labelSets
    this.labelSetIds = new Map(labelSets.map((labels, id) => [labels.join("\u0000"), id]))
    this.targets = [...targets]
  }

  toolId(name: string): number {
    let id = this.toolIds.get(name)
    if (id === undefined) {
      id = this.tools.length
      this.toolIds.set(name, id)
      this.tools.push(name)
    }
    return id
  }

  targetId(target: StepTarget | undefined): number {
    if (target === undefined) return -1
    const key = JSON.stringify(target)
    this.targetIds ??= new Map(this.targets.map((known, id) => [JSON.stringify(known), id]))
    let id = this.targetIds.get(key)
    if (id === undefined) {
      id = this.targets.length
      this.targetIds.set(key, id)
      this.targets.push(target)
    }
    return id
  }

  /** What queries derive from target `index` (an index into `targets`). */
  info(index: number): TargetInfo {
    let info = this.infos[index]
    if (info === undefined) {
      const target = this.targets[index]!
      const description = describeStepTarget(target)
      const durable = targetTooLong(target) ? undefined : durableTarget(target)
      const shown = shownTargetOf(target, description, durable)
      let shownId = -1
      if (shown !== undefined) {
        shownId = this.shownIds.get(shown) ?? this.shownIds.size
        this.shownIds.set(shown, shownId)
      }
      this.infos[index] = info = { target, description, durable, shown, shownId }
    }
    return info
  }

  labelSet(labels: ReadonlyArray<string>): number {
    const key = labels.join("\u0000")
    let id = this.labelSetIds.get(key)
    if (id === undefined) {
      id = this.labelSets.length
      this.labelSetIds.set(key, id)
      this.labelSets.push([...labels])
    }
    return id
  }

  reserve(size: number): void {
    this.session = growInt32(this.session, size)
    this.time = growFloat64(this.time, size)
    this.ok = growUint8(this.ok, size)
    this.dead = growUint8(this.dead, size)
    this.tool = growInt32(this.tool, size)
    this.target = growInt32(this.target, size)
    this.screen = growInt32(this.screen, size)
    this.url = growInt32(this.url, size)
    this.errorCode = growInt32(this.errorCode, size)
    this.labels = growInt32(this.labels, size)
  }

  description(id: number): string | undefined {
    const target = this.target[id]!
    return target < 0 ? undefined : this.info(target).description
  }

  timestamp(id: number): string {
    return this.timestamps.get(id) ?? new Date(this.time[id]!).toISOString()
  }

  screenOf(id: number): string | undefined {
    return this.strings.at(this.screen[id]!)
  }
}

