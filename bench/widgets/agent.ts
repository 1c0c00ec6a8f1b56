// The scripted single-call agent of bench/widgets: one MCP call at a time, never batched. For each step
// it looks for the target in what the server answered so far (newest answer first), acts once on the
// most plausible node, and reads the answer; when the target is in no answer it asks the server once
// with its search tool, then once for the whole page, and gives up if it still cannot see it. The logic
// is the same for both contenders; a small adapter per server names the tools and their arguments, and
// one parser reads refs, roles, names and text out of either server's page text.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { expandRefRuns } from "../../src/domain/snapshot-text.js"
import type { Step, Target } from "./tasks.js"

/** One node of a page text: `role "name" [ref] ...: text` (ours) or `- role "name" [ref=e5] ...: text` (Playwright MCP). */
export interface PageNode {
  readonly ref: string
  /** The ref is the node's own (not its enclosing element's). */
  readonly own: boolean
  readonly role: string
  readonly name: string
  readonly text: string
  readonly indent: number
  readonly line: number
}

const REF = /\[(?:ref=)?((?:f\d+)?e\d+)(?:\.\.(?:f\d+)?e\d+)?\]/
const unquote = (text: string) => text.trim().replace(/^"(.*)"$/, "$1").replace(/\\"/g, '"')

/**
 * The nodes of a page text, in order. A node line without a ref of its own (Playwright MCP leaves the
 * switch inside a clickable wrapper without one) takes its parent line's ref when that has one: the
 * element an agent would click for it.
 */
export const parseNodes = (text: string): Array<PageNode> => {
  const nodes: Array<PageNode> = []
  const enclosing: Array<{ indent: number; ref: string | undefined }> = []
  text.split("\n").forEach((raw, line) => {
    // Our find marks a match with "▶ " after its indentation.
    const cleaned = raw.replace(/[▶►] /g, "")
    const head = /^(\s*)(?:- )?([a-zA-Z]+)(?: "((?:[^"\\]|\\.)*)")?(?=$|[\s:\[])/.exec(cleaned)
    if (head === null) return
    const indent = head[1]!.length
    while (enclosing.length > 0 && enclosing[enclosing.length - 1]!.indent >= indent) enclosing.pop()
    const match = REF.exec(cleaned)
    const own = match?.[1]
    const ref = own ?? enclosing[enclosing.length - 1]?.ref
    enclosing.push({ indent, ref: own })
    if (ref === undefined) return
    const rest = match === null ? cleaned.slice(head[0].length) : cleaned.slice(cleaned.indexOf(match[0]) + match[0].length)
    const colon = rest.indexOf(": ")
    nodes.push({
      ref,
      own: own !== undefined,
      role: head[2]!,
      name: unquote(head[3] ?? ""),
      text: colon >= 0 ? unquote(rest.slice(colon + 2)) : "",
      indent,
      line
    })
  })
  return nodes
}

const CONTAINERS = new Set(["row", "listitem", "columnheader", "option", "treeitem"])

/** The nodes inside the nearest row, item or header around the first node that reads `near` (itself included). */
const within = (nodes: ReadonlyArray<PageNode>, near: string): ReadonlyArray<PageNode> => {
  const want = near.toLowerCase()
  const at = nodes.findIndex((node) => node.name.toLowerCase().includes(want) || node.text.toLowerCase().includes(want))
  if (at < 0) return []
  let top = -1
  for (let i = at; i >= 0; i--) {
    if (CONTAINERS.has(nodes[i]!.role) && (i === at || nodes[i]!.indent < nodes[at]!.indent)) {
      top = i
      break
    }
  }
  if (top < 0) return []
  const inside = [nodes[top]!]
  for (const node of nodes.slice(top + 1)) {
    if (node.indent <= nodes[top]!.indent) break
    inside.push(node)
  }
  return inside
}

/** How plausible a node is as the target: 0 not at all; an exact name beats an exact text beats a partial match. */
const score = (node: PageNode, target: Target): number => {
  const anyRole = target.role.includes("*")
  if (!anyRole && !target.role.includes(node.role)) return 0
  // At the same match, a node's own ref beats the one it borrows from its wrapper, and a role named
  // earlier in the target beats a later one.
  const own = (node.own ? 0.5 : 0) + (anyRole ? 0 : (target.role.length - target.role.indexOf(node.role)) * 0.01)
  const want = target.name.toLowerCase()
  if (want === "") return 1 + own
  const name = node.name.toLowerCase()
  const text = node.text.toLowerCase()
  if (name === want) return 5 + own
  if (text === want) return 4 + own
  if (anyRole) return 0
  if (name.includes(want)) return 3 + own
  if (text.includes(want)) return 2 + own
  return 0
}

/**
 * The most plausible node for `target` in one page text (the first of the best), if any, leaving out the
 * refs the server said are gone. Inside the row that reads `near` if the text shows one, else anywhere.
 */
export const bestIn = (text: string, target: Target, gone: ReadonlySet<string> = new Set()): PageNode | undefined => {
  const all = parseNodes(text).filter((node) => !gone.has(node.ref))
  const near = target.near === undefined ? [] : within(all, target.near)
  const pool = near.length > 0 ? near : all
  let best: PageNode | undefined
  let bestScore = 0
  for (const node of pool) {
    const value = score(node, target)
    if (value > bestScore) {
      best = node
      bestScore = value
    }
  }
  return best
}

export interface Call {
  readonly tool: string
  readonly args: Record<string, unknown>
}

/** What differs between the contenders: the names and arguments of their tools. */
export interface Adapter {
  readonly label: string
  /**
   * An action's answer replaces what the agent knew of the page (Playwright MCP: the page changed and its
   * snapshot went to a file), or adds to it (ours: what changed, "(gone: …)" for refs that left).
   */
  readonly actionResetsView: boolean
  readonly open: (url: string) => ReadonlyArray<Call>
  /** How the contender takes a step: as it is, or as the steps its tools need (a select as clicks). */
  readonly steps: (step: Step) => ReadonlyArray<Step>
  /** The calls that look for a target when no answer showed it: a search, then the whole page. */
  readonly look: (target: Target) => ReadonlyArray<Call>
  readonly act: (step: Exclude<Step, { do: "see" }>, ref: string | undefined, to?: string) => Call
}

export const ours: Adapter = {
  label: "ours",
  actionResetsView: false,
  open: () => [{ tool: "mm_launch", args: {} }],
  steps: (step) => [step],
  look: (target) => [
    { tool: "mm_find", args: { text: target.name === "" ? (target.near ?? "") : target.name } },
    { tool: "mm_accessibility_snapshot", args: {} }
  ],
  act: (step, ref, to) => {
    switch (step.do) {
      case "click":
        return { tool: "mm_click", args: { a11yRef: ref } }
      case "check":
        return { tool: "mm_set_checked", args: { a11yRef: ref, checked: true } }
      case "type":
        return { tool: "mm_type", args: { a11yRef: ref, text: step.text, ...(step.submit === true ? { submit: true } : {}) } }
      case "press":
        return { tool: "mm_press_key", args: { key: step.key } }
      case "drag":
        return { tool: "mm_drag", args: { a11yRef: ref, to: { a11yRef: to } } }
      case "select":
        return { tool: "mm_select_option", args: { a11yRef: ref, values: step.values } }
    }
  }
}

const describe = (target: Target) => `${target.role[0] === "*" ? "element" : target.role[0]} "${target.name || target.near}"`

export const theirs: Adapter = {
  label: "playwright-mcp",
  actionResetsView: true,
  open: (url) => [{ tool: "browser_navigate", args: { url } }],
  // Its browser_select_option takes a native <select> only: a widget's options are clicked.
  steps: (step) => (step.do === "select" ? step.clicks : [step]),
  look: (target) => [
    { tool: "browser_find", args: { text: target.name === "" ? (target.near ?? "") : target.name } },
    { tool: "browser_snapshot", args: {} }
  ],
  act: (step, ref, to) => {
    const element = step.do === "press" ? "" : describe(step.target)
    switch (step.do) {
      case "click":
      case "check":
        return { tool: "browser_click", args: { element, target: ref } }
      case "type":
        return { tool: "browser_type", args: { element, target: ref, text: step.text, ...(step.submit === true ? { submit: true } : {}) } }
      case "press":
        return { tool: "browser_press_key", args: { key: step.key.replace(/\+a$/, "+A") } }
      case "drag":
        return { tool: "browser_drag", args: { startElement: element, startTarget: ref, endElement: describe(step.to), endTarget: to } }
      case "select":
        return { tool: "browser_select_option", args: { element, target: ref, values: step.values } }
    }
  }
}

export interface Answer {
  readonly tool: string
  readonly text: string
  readonly isError: boolean
  readonly ms: number
}

export interface Attempt {
  readonly calls: number
  readonly bytes: number
  readonly errors: number
  /** Every action answered success. */
  readonly allOk: boolean
  /** Why the attempt stopped early: a target it could not see, an error answer, a deadline. */
  readonly stopped?: string
  readonly ms: number
  readonly answers: ReadonlyArray<Answer>
}

type Content = ReadonlyArray<{ type: string; text?: string; data?: string }>

/** One task's attempt by one contender: one call at a time, each with its deadline. */
export class SingleCallAgent {
  private calls = 0
  private bytes = 0
  private errors = 0
  private readonly answers: Array<Answer> = []
  /** Where the answers that still describe the page start. */
  private viewStart = 0
  /** Refs the server said left the page. */
  private readonly gone = new Set<string>()

  constructor(
    private readonly client: Client,
    private readonly adapter: Adapter,
    private readonly callDeadlineMs: number,
    private readonly log: (line: string) => void
  ) {}

  private async call(call: Call): Promise<Answer> {
    const started = Date.now()
    this.calls++
    this.bytes += Buffer.byteLength(JSON.stringify({ name: call.tool, arguments: call.args }))
    try {
      const result = await this.client.callTool({ name: call.tool, arguments: call.args }, undefined, { timeout: this.callDeadlineMs })
      const content = (result.content ?? []) as Content
      this.bytes += content.reduce((sum, block) => sum + Buffer.byteLength(block.text ?? block.data ?? ""), 0)
      const answer = { tool: call.tool, text: content.map((block) => block.text ?? "").join("\n"), isError: result.isError === true, ms: Date.now() - started }
      if (answer.isError) this.errors++
      this.answers.push(answer)
      for (const line of answer.text.split("\n")) {
        for (const ref of expandRefRuns(/^\(gone: ([^)]*)\)$/.exec(line.trim())?.[1]?.split(" ") ?? [])) this.gone.add(ref)
      }
      this.log(`[${this.adapter.label}] ${call.tool} ${JSON.stringify(call.args)} -> ${answer.isError ? "ERROR " : ""}${answer.ms} ms\n${answer.text}\n`)
      return answer
    } catch (error) {
      this.errors++
      const answer = { tool: call.tool, text: `no answer: ${error instanceof Error ? error.message : String(error)}`, isError: true, ms: Date.now() - started }
      this.answers.push(answer)
      this.log(`[${this.adapter.label}] ${call.tool} ${JSON.stringify(call.args)} -> ${answer.text}\n`)
      return answer
    }
  }

  /** The target's ref in the answers so far, newest first. */
  private seen(target: Target): string | undefined {
    for (let i = this.answers.length - 1; i >= this.viewStart; i--) {
      if (this.answers[i]!.isError) continue
      const node = bestIn(this.answers[i]!.text, target, this.gone)
      if (node !== undefined) return node.ref
    }
    return undefined
  }

  /**
   * The target's ref: seen already, else after one search, else after one read of the whole page; at each
   * stage the target as described first, then its fallback (`or`).
   */
  private async locate(target: Target): Promise<string | undefined> {
    const ways = target.or === undefined ? [target] : [target, target.or]
    for (const way of ways) {
      const known = this.seen(way)
      if (known !== undefined) return known
    }
    for (const look of this.adapter.look(target)) {
      const answer = await this.call(look)
      if (answer.isError) continue
      for (const way of ways) {
        const node = bestIn(answer.text, way, this.gone)
        if (node !== undefined) return node.ref
      }
    }
    return undefined
  }

  async attempt(url: string, steps: ReadonlyArray<Step>): Promise<Attempt> {
    const started = Date.now()
    const finish = (allOk: boolean, stopped?: string): Attempt => ({
      calls: this.calls,
      bytes: this.bytes,
      errors: this.errors,
      allOk,
      ...(stopped === undefined ? {} : { stopped }),
      ms: Date.now() - started,
      answers: this.answers
    })
    for (const open of this.adapter.open(url)) {
      const answer = await this.call(open)
      if (answer.isError) return finish(false, `opening failed: ${firstLine(answer.text)}`)
    }
    for (const step of steps.flatMap((each) => this.adapter.steps(each))) {
      const ref = step.do === "press" ? undefined : await this.locate(step.target)
      if (step.do !== "press" && ref === undefined) return finish(false, `could not see ${describe(step.target)}`)
      let to: string | undefined
      if (step.do === "drag") {
        to = await this.locate(step.to)
        if (to === undefined) return finish(false, `could not see ${describe(step.to)}`)
      }
      if (step.do === "see") continue
      if (this.adapter.actionResetsView) this.viewStart = this.answers.length
      const answer = await this.call(this.adapter.act(step, ref, to))
      if (answer.isError) return finish(false, `${answer.tool}${step.do === "press" ? "" : ` on ${describe(step.target)}`}: ${firstLine(answer.text)}`)
    }
    return finish(true)
  }
}

const firstLine = (text: string) => {
  const line = text.split("\n").find((candidate) => candidate.trim() !== "") ?? ""
  return line.length > 240 ? line.slice(0, 240) + "…" : line
}
