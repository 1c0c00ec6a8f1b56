// One agent's flow in the parallel bench, on the two apps served on 127.0.0.1, for our server and for
// @playwright/mcp: on TodoMVC it adds its own three items, completes one and reads its list back; on the
// sample app it signs in as its own user and reads the welcome back. Targets come from the answers
// (refs parsed from them, never hard-coded). What it read back is checked against what this agent
// did: another agent's item, a missing or wrongly completed item of its own, or another user's welcome
// is a cross-session violation, counted (never thrown), so a run reports how much agents interfered.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { expectIn, indentOf, refIn, refNear } from "../support.js"

/** The apps, by name: BENCH_APPS picks among them. */
export const APPS = ["todo", "sample"] as const
export type App = (typeof APPS)[number]

/** Where the apps are served (one loopback server serves both). */
export interface Urls {
  readonly todo: string
  readonly sample: string
}

type Content = ReadonlyArray<{ type: string; text?: string; data?: string }>

/** A tool call answered with an error: its MM_* code when the answer has one. */
export class CallFailed extends Error {
  constructor(
    readonly tool: string,
    readonly code: string,
    text: string
  ) {
    super(`${tool}: ${code}: ${text.slice(0, 400)}`)
  }
}

/**
 * One agent: an MCP client (its own, or one it shares with the other agents of a stdio client) that
 * counts its calls and the bytes it reads. With `session` set, every call names that session.
 */
export class Agent {
  calls = 0
  bytes = 0
  session: string | undefined
  constructor(
    readonly client: Client,
    readonly index: number
  ) {}

  async call(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const named = this.session === undefined ? args : { ...args, session: this.session }
    const result = await this.client.callTool({ name, arguments: named }, undefined, { timeout: 120_000 })
    const content = result.content as Content
    this.calls++
    this.bytes += content.reduce((sum, block) => sum + Buffer.byteLength(block.text ?? block.data ?? ""), 0)
    const text = content.map((block) => block.text ?? "").join("\n")
    if (process.env.BENCH_VERBOSE === "1") process.stderr.write(`[agent ${this.index}] ${name} ${JSON.stringify(named)}\n${text}\n\n`)
    if (result.isError === true) throw new CallFailed(name, /"code":"([A-Z_]+)"/.exec(text)?.[1] ?? "error", text)
    return text
  }
}

/** The three items agent `k` adds (A1 ... never a prefix of another agent's: a space follows the number). */
export const itemsOf = (k: number) => [`A${k} buy milk`, `A${k} walk dog`, `A${k} read book`]
/** The item it completes. */
const completedOf = (k: number) => itemsOf(k)[1]!
const userOf = (k: number) => `agent${k}`
const ANY_ITEM = /\bA\d+ (?:buy milk|walk dog|read book)\b/g

/**
 * The bench's items in a page text (our find answer or Playwright's snapshot), each with whether the
 * checkbox of its list item is checked. An item's list item is its own line or the nearest line above it
 * that reads "listitem" and is less indented; its subtree is every more indented line below that.
 */
export const itemStates = (text: string): Map<string, boolean> => {
  const lines = text.split("\n")
  const states = new Map<string, boolean>()
  lines.forEach((line, at) => {
    for (const item of line.match(ANY_ITEM) ?? []) {
      let top = at
      while (top >= 0 && !(/listitem/.test(lines[top]!) && (top === at || indentOf(lines[top]!) < indentOf(lines[at]!)))) top--
      if (top < 0) continue
      let checked = false
      for (const below of lines.slice(top + 1)) {
        if (indentOf(below) <= indentOf(lines[top]!)) break
        if (/checkbox \[checked\]/.test(below)) checked = true
      }
      states.set(item, (states.get(item) ?? false) || checked)
    }
  })
  return states
}

/** Violations in a TodoMVC read-back of agent `k`: foreign items, own items missing, wrong completion. */
export const todoViolations = (k: number, read: string): number => {
  const states = itemStates(read)
  const own = new Set(itemsOf(k))
  let violations = 0
  for (const item of states.keys()) if (!own.has(item)) violations++
  for (const item of own) {
    if (!states.has(item)) violations++
    else if (states.get(item) !== (item === completedOf(k))) violations++
  }
  return violations
}

/** Violations in the sample app's welcome as agent `k` read it: 0 when it names its own user. */
const welcomeViolations = (k: number, read: string): number => (/Welcome, ([^"\n]*)/.exec(read)?.[1] === userOf(k) ? 0 : 1)

const TEXTBOX_TODO = /textbox "What needs to be done\?"/

/**
 * A target as our agent finds it: in the answer it read, else (the page was not there yet when the
 * action answered, say) in what it reads by one more call, `look`.
 */
const seek = async (answer: string, look: () => Promise<string>, find: (text: string) => string): Promise<string> => {
  try {
    return find(answer)
  } catch {
    return find(await look())
  }
}

/** Our server: one agent's flow on `app`, answering the violations it read. */
export const ours = async (agent: Agent, app: App, urls: Urls): Promise<number> => {
  const k = agent.index
  if (app === "todo") {
    const opened = await agent.call("mm_navigate", { url: urls.todo })
    const input = await seek(opened, () => agent.call("mm_find", { text: "What needs to be done" }), (text) => refIn(text, TEXTBOX_TODO, "the new-todo field"))
    let seen = ""
    for (const item of itemsOf(k)) seen += (await agent.call("mm_type", { a11yRef: input, text: item, submit: true })) + "\n"
    const checkbox = await seek(seen, () => agent.call("mm_find", { text: completedOf(k) }), (text) => refNear(text, completedOf(k), /listitem/, /checkbox/, `the checkbox of ${completedOf(k)}`))
    await agent.call("mm_click", { a11yRef: checkbox })
    return todoViolations(k, await agent.call("mm_find", { role: "listitem", limit: 50 }))
  }
  const opened = await agent.call("mm_navigate", { url: urls.sample })
  const form = await seek(opened, () => agent.call("mm_describe_screen"), (text) => (refIn(text, /textbox "Password"/, "the password field"), text))
  const username = refIn(form, /textbox "Username"/, "the username field")
  const password = refIn(form, /textbox "Password"/, "the password field")
  const signIn = refIn(form, /button "Sign in"/, "Sign in")
  await agent.call("mm_type", { a11yRef: username, text: userOf(k) })
  await agent.call("mm_type", { a11yRef: password, text: "correct horse" })
  await agent.call("mm_click", { a11yRef: signIn })
  await agent.call("mm_wait_for", { testId: "welcome" })
  return welcomeViolations(k, await agent.call("mm_get_text", { testId: "welcome" }))
}

/** @playwright/mcp: the same flow, looking with browser_snapshot before each new target. */
export const theirs = async (agent: Agent, app: App, urls: Urls): Promise<number> => {
  const k = agent.index
  if (app === "todo") {
    await agent.call("browser_navigate", { url: urls.todo })
    const input = refIn(await agent.call("browser_snapshot"), TEXTBOX_TODO, "the new-todo field")
    for (const item of itemsOf(k)) await agent.call("browser_type", { target: input, text: item, submit: true })
    const list = await agent.call("browser_snapshot")
    await agent.call("browser_click", { target: refNear(list, completedOf(k), /listitem/, /checkbox/, `the checkbox of ${completedOf(k)}`) })
    return todoViolations(k, await agent.call("browser_snapshot"))
  }
  await agent.call("browser_navigate", { url: urls.sample })
  const form = await agent.call("browser_snapshot")
  await agent.call("browser_type", { target: refIn(form, /textbox "Username"/, "the username field"), text: userOf(k) })
  await agent.call("browser_type", { target: refIn(form, /textbox "Password"/, "the password field"), text: "correct horse" })
  await agent.call("browser_click", { target: refIn(form, /button "Sign in"/, "Sign in") })
  await agent.call("browser_wait_for", { text: "Welcome," })
  const page = await agent.call("browser_snapshot")
  expectIn(page, /heading "Welcome,/, "the welcome")
  return welcomeViolations(k, page)
}
