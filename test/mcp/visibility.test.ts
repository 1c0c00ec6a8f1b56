// The tool list follows the session, over the SDK client (in-memory transport, mock browser): what is
// listed before launch, with a session, an extension, a second tab, a capability, opt-in groups and
// hide/show rules; tools/list_changed on every change; --static-tools; clear errors for hidden tools.
import { Effect, Layer, ManagedRuntime, Option, Ref, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Build } from "../../src/capabilities/Build.js"
import { inputJsonSchema } from "../../src/mcp/json-schema.js"
import { describeTool, makeMcpServer, type McpServerOptions } from "../../src/mcp/server.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import { defineTool, type AnyToolDefinition } from "../../src/runtime/tool.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer } from "../../src/services/Observer.js"
import { Session, type SessionInfo } from "../../src/services/Session.js"
import { makeRunSteps } from "../../src/tools/batch.js"
import { builtinTools } from "../../src/tools/registry.js"
import { closedAfterEach } from "../support/mcp-client.js"
import { mockSessionRegistry, mockState as state } from "../support/mock-sessions.js"

/** An opt-in tool of a group that is off unless enabled, as later groups (debugger, devtools) will be. */
const debuggerProbe = defineTool({
  name: "debugger_probe",
  title: "Probe",
  description: "A tool of an opt-in group, for tests.",
  input: Schema.Struct({}),
  output: Schema.Struct({ probed: Schema.Boolean }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  group: "debugger",
  optIn: true,
  requiresSession: false,
  observation: "none",
  run: () => Effect.succeed({ probed: true })
})

const registryOf = (tools: ReadonlyArray<AnyToolDefinition>) => makeRegistry([...tools, makeRunSteps()], "mm")

/** A browser that only keeps what the tool list follows: the session, its extension, the open tabs; and counts clicks. */
const mockWorld = () => {
  const current = Ref.unsafeMake(Option.none<SessionInfo>())
  const tabs = Ref.unsafeMake(1)
  const clicks = Ref.unsafeMake(0)
  const layer = Layer.mergeAll(
    Session.layerTest({
      current: Ref.get(current),
      tabCount: Ref.get(tabs),
      launch: (options) =>
        Effect.gen(function* () {
          const extensionId = options.extensionPath === undefined ? undefined : "abcdefghijklmnopabcdefghijklmnop"
          yield* Ref.set(current, Option.some({ sessionId: "s1", startedAt: "", flowTags: [], tags: [], extensionId }))
          return { sessionId: "s1", extensionId, homeUrl: state.currentUrl }
        }),
      cleanup: Effect.map(Ref.getAndSet(current, Option.none()), Option.isSome),
      click: () => Effect.as(Ref.update(clicks, (n) => n + 1), { pageClosedAfterClick: false })
    }),
    Observer.layerTest({ state: Effect.succeed(state), observe: () => Effect.succeed({ state }) }),
    KnowledgeStore.layerMemory
  )
  return { current, tabs, clicks, layer }
}

const wire = closedAfterEach()

type World = ReturnType<typeof mockWorld>

const runtimeOf = (world: World, capabilities: Layer.Layer<never> = Layer.empty) => wire.runtime(Layer.merge(world.layer, capabilities))

/** A client connected to its own server over the given runtime, counting tools/list_changed. */
const connect = (
  runtime: ManagedRuntime.ManagedRuntime<any, any>,
  options: McpServerOptions = {},
  tools: ReadonlyArray<AnyToolDefinition> = [...builtinTools, debuggerProbe]
) => wire.connect(makeMcpServer(registryOf(tools), runtime, options), "visibility-test")

const BEFORE_LAUNCH = [
  "mm_launch",
  "mm_cleanup",
  "mm_knowledge",
  "mm_replay",
  "mm_hide_tools",
  "mm_run_steps"
]

const PAGE_TOOLS = [
  "mm_describe_screen",
  "mm_navigate",
  "mm_click",
  "mm_type",
  "mm_press_key",
  "mm_select_option",
  "mm_hover",
  "mm_wait_for",
  "mm_get_text",
  "mm_screenshot",
  "mm_get_state"
]

const TAB_TOOLS = ["mm_tabs"]
/** Old names of what a listed tool now does: callable, never listed (not even in the fixed list). */
const OLD_NAMES = ["mm_list_tabs", "mm_switch_to_tab", "mm_close_tab", "mm_list_testids", "mm_accessibility_snapshot"]
const EXTENSION_TOOLS = ["mm_wait_for_notification", "mm_extension_storage"]

describe("the tool list follows the session", () => {
  it("before launch: lifecycle, knowledge, hide_tools and run_steps only; the server declares tools.listChanged", async () => {
    const { client, names } = await connect(runtimeOf(mockWorld()))
    expect(await names()).toEqual(BEFORE_LAUNCH)
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true)
  })

  it("launch lists the page tools and announces it; cleanup takes them away and announces that too", async () => {
    const { names, call, changes } = await connect(runtimeOf(mockWorld()))
    await names()
    expect((await call("mm_launch")).ok).toBe(true)
    expect(changes()).toBe(1)
    const withSession = await names()
    // launch stays listed (another launch is another session); a replay (in a session of its own) is listed
    // before a launch only; the older knowledge tools are callable but never listed.
    expect(withSession).toEqual(
      expect.arrayContaining([...PAGE_TOOLS, "mm_launch", "mm_cleanup", "mm_knowledge", "mm_hide_tools", "mm_run_steps"])
    )
    // mm_sessions is listed from a second session on (test below).
    for (const absent of ["mm_sessions", "mm_replay", "mm_knowledge_sessions", "mm_knowledge_search", "mm_report", ...TAB_TOOLS, ...EXTENSION_TOOLS, "mm_show_tools", "mm_debugger_probe"]) {
      expect(withSession).not.toContain(absent)
    }
    expect((await call("mm_cleanup")).result).toEqual({ cleanedUp: true })
    expect(changes()).toBe(2)
    expect(await names()).toEqual(BEFORE_LAUNCH)
  })

  it("a call that changes nothing the list follows sends no notification", async () => {
    const { names, call, changes } = await connect(runtimeOf(mockWorld()))
    await names()
    await call("mm_knowledge_last", { scope: "all" })
    await call("mm_click", { testId: "x" })
    expect(changes()).toBe(0)
  })

  it("extension tools are listed only with an extension loaded", async () => {
    const { names, call } = await connect(runtimeOf(mockWorld()))
    await call("mm_launch", { extensionPath: "/tmp/extension" })
    expect(await names()).toEqual(expect.arrayContaining(EXTENSION_TOOLS))
    await call("mm_cleanup")
    await call("mm_launch")
    const withoutExtension = await names()
    for (const tool of EXTENSION_TOOLS) expect(withoutExtension).not.toContain(tool)
    const storage = await call("mm_extension_storage")
    expect(storage.error?.code).toBe("MM_TOOL_UNAVAILABLE")
    expect(storage.error?.message).toContain("needs a session with an extension loaded")
  })

  it("tab tools are listed once a second tab is open", async () => {
    const world = mockWorld()
    const { names, call, changes } = await connect(runtimeOf(world))
    await names()
    await call("mm_launch")
    for (const tool of TAB_TOOLS) expect(await names()).not.toContain(tool)
    await Effect.runPromise(Ref.set(world.tabs, 2))
    await call("mm_click", { testId: "opens-a-popup" })
    expect(changes()).toBe(2)
    const withTabs = await names()
    expect(withTabs).toEqual(expect.arrayContaining(TAB_TOOLS))
    // One tool for the tabs, as Playwright MCP's browser_tabs: the three it replaced stay callable, unlisted.
    for (const old of OLD_NAMES) expect(withTabs).not.toContain(old)
  })

  it("the list checked after every call (memoized on what decides it) changes exactly when the tabs or the rules do, back and forth", async () => {
    const world = mockWorld()
    const { names, call, changes } = await connect(runtimeOf(world))
    await names()
    await call("mm_launch")
    expect(changes()).toBe(1)
    // Unchanged state, several calls: no notification.
    await call("mm_click", { testId: "x" })
    await call("mm_click", { testId: "x" })
    expect(changes()).toBe(1)
    await Effect.runPromise(Ref.set(world.tabs, 2))
    await call("mm_click", { testId: "x" })
    expect(changes()).toBe(2)
    expect(await names()).toEqual(expect.arrayContaining(TAB_TOOLS))
    await call("mm_click", { testId: "x" })
    expect(changes()).toBe(2)
    // Back to the state listed before: the list changes again (the memo holds the last state, not the first).
    await Effect.runPromise(Ref.set(world.tabs, 1))
    await call("mm_click", { testId: "x" })
    expect(changes()).toBe(3)
    expect(await names()).not.toContain("mm_tabs")
    // A rule is an input too: hiding a tool, then showing it back, are two changes; a call between them is none.
    await call("mm_hide_tools", { tools: ["mm_hover"] })
    expect(changes()).toBe(4)
    expect(await names()).not.toContain("mm_hover")
    await call("mm_click", { testId: "x" })
    expect(changes()).toBe(4)
    await call("mm_show_tools", { tools: ["mm_hover"] })
    expect(changes()).toBe(5)
    expect(await names()).toContain("mm_hover")
    // And the session: cleanup takes the page tools away.
    await call("mm_cleanup")
    expect(changes()).toBe(6)
    expect(await names()).toEqual(BEFORE_LAUNCH)
  })

  it("capability tools are listed only when the capability is provided; called without it they say how to provide it", async () => {
    const build = Build.layer({ description: "test build", run: () => Effect.succeed({ durationMs: 1, outputTail: "ok" }) })
    const withBuild = await connect(runtimeOf(mockWorld(), build))
    expect(await withBuild.names()).toContain("mm_build")
    const without = await connect(runtimeOf(mockWorld()))
    const names = await without.names()
    for (const tool of ["mm_build", "mm_seed_contract", "mm_seed_contracts", "mm_get_contract_address", "mm_list_contracts"]) {
      expect(names).not.toContain(tool)
    }
    expect((await without.call("mm_build")).error?.code).toBe("MM_CAPABILITY_NOT_AVAILABLE")
  })

  it("an opt-in group is off until enabled by caps (or all); called while off it says how to enable it", async () => {
    const off = await connect(runtimeOf(mockWorld()))
    expect(await off.names()).not.toContain("mm_debugger_probe")
    const refused = await off.call("mm_debugger_probe")
    expect(refused.error).toEqual({
      code: "MM_TOOL_UNAVAILABLE",
      message: 'mm_debugger_probe is in group debugger, which is off: start the server with --caps debugger (or "caps": ["debugger"] in the config file).',
      details: { tool: "mm_debugger_probe", reason: "group" }
    })
    for (const caps of [["debugger"], ["all"]]) {
      const on = await connect(runtimeOf(mockWorld()), { caps })
      expect(await on.names()).toContain("mm_debugger_probe")
      expect((await on.call("mm_debugger_probe")).result).toEqual({ probed: true })
    }
  })

  it("a page tool called before launch says it needs a running session, and does not run", async () => {
    const world = mockWorld()
    const { call } = await connect(runtimeOf(world))
    const clicked = await call("mm_click", { testId: "x" })
    expect(clicked.error).toEqual({ code: "MM_NO_ACTIVE_SESSION", message: "mm_click needs a running session: call mm_launch first." })
    expect(await Effect.runPromise(Ref.get(world.clicks))).toBe(0)
  })
})

describe("hide_tools and show_tools", () => {
  it("hide names and globs, show some back, then all; show_tools is listed only while something is hidden", async () => {
    const { names, call, changes } = await connect(runtimeOf(mockWorld()))
    await call("mm_launch")
    const before = changes()
    const hidden = await call("mm_hide_tools", { tools: ["knowledge*", "mm_screenshot", "mm_get_*"] })
    // Old names that are never listed (mm_knowledge_search...) are not reported as hidden.
    expect(hidden.result.hidden).toEqual(["mm_get_text", "mm_screenshot", "mm_get_state", "mm_get_contract_address", "mm_knowledge"])
    expect(changes()).toBe(before + 1)
    const listed = await names()
    expect(listed.filter((name) => name.startsWith("mm_knowledge") || name.startsWith("mm_get_") || name === "mm_screenshot")).toEqual([])
    expect(listed).toContain("mm_show_tools")

    const refused = await call("mm_screenshot", { name: "x" })
    expect(refused.error?.code).toBe("MM_TOOL_UNAVAILABLE")
    expect(refused.error?.message).toBe('mm_screenshot is hidden by mm_hide_tools: call mm_show_tools {"tools": ["mm_screenshot"]} to list it again.')

    await call("mm_show_tools", { tools: ["mm_knowledge"] })
    expect(await names()).toContain("mm_knowledge")
    expect(await names()).not.toContain("mm_get_text")
    expect((await call("mm_show_tools", { all: true })).result).toEqual({ hidden: [] })
    const restored = await names()
    expect(restored).toContain("mm_screenshot")
    expect(restored).not.toContain("mm_show_tools")
  })

  it("show_tools cannot be hidden, a pattern that names no tool is refused, and * hides all but the meta tools", async () => {
    const { names, call } = await connect(runtimeOf(mockWorld()))
    const typo = await call("mm_hide_tools", { tools: ["mm_knowlege_*"] })
    expect(typo.error?.code).toBe("MM_INVALID_INPUT")
    expect(typo.error?.message).toContain("matches no tool")
    await call("mm_hide_tools", { tools: ["*"] })
    expect(await names()).toEqual(["mm_hide_tools", "mm_show_tools"])
    await call("mm_hide_tools", { tools: ["mm_show_tools"] })
    expect(await names()).toContain("mm_show_tools")
    await call("mm_show_tools", { all: true })
    expect(await names()).toEqual(BEFORE_LAUNCH)
  })

  it("each client keeps its own rules; a launch by one client updates every client's list", async () => {
    const runtime = runtimeOf(mockWorld())
    const first = await connect(runtime)
    const second = await connect(runtime)
    await second.names()
    await first.call("mm_hide_tools", { tools: ["mm_run_steps"] })
    expect(await second.names()).toContain("mm_run_steps")
    expect(second.changes()).toBe(0)
    await first.call("mm_launch")
    expect(second.changes()).toBe(1)
    expect(await second.names()).toContain("mm_click")
    expect(await first.names()).not.toContain("mm_run_steps")
  })
})

describe("batches", () => {
  it("[launch, click] runs in one batch before launch: each step is checked when it runs", async () => {
    const world = mockWorld()
    const { call, changes, names } = await connect(runtimeOf(world))
    await names()
    const batch = await call("mm_run_steps", {
      steps: [{ tool: "mm_launch" }, { tool: "mm_click", args: { testId: "go" } }]
    })
    expect(batch.result.steps.map((step: { ok: boolean }) => step.ok)).toEqual([true, true])
    expect(await Effect.runPromise(Ref.get(world.clicks))).toBe(1)
    expect(changes()).toBe(1)
  })

  it("a step whose tool is hidden fails with the same error as a single call", async () => {
    const { call } = await connect(runtimeOf(mockWorld()))
    await call("mm_hide_tools", { tools: ["mm_knowledge_last"] })
    const batch = await call("mm_run_steps", { steps: [{ tool: "mm_knowledge_last", args: { scope: "all" } }] })
    expect(batch.result.steps[0].error.code).toBe("MM_TOOL_UNAVAILABLE")
  })
})

/** A session registry over mock sessions: each launch is a slot of its own, as the live server's are. */
const registryWorld = () => wire.runtime(mockSessionRegistry().layer)

describe("sessions in the tool list", () => {
  it("from a second session on, mm_sessions and every session tool's session argument are listed, mm_cleanup stays; back to one, the list is as before", async () => {
    const { client, call, changes } = await connect(registryWorld())
    const listed = async () => (await client.listTools()).tools
    const withSessionArgument = (tools: Awaited<ReturnType<typeof listed>>) =>
      tools.filter((tool) => Object.hasOwn((tool.inputSchema.properties ?? {}) as object, "session")).map((tool) => tool.name)
    expect((await call("mm_launch")).ok).toBe(true)
    const one = await listed()
    const names = one.map((tool) => tool.name)
    expect(names).toContain("mm_cleanup")
    expect(names).not.toContain("mm_sessions")
    // mm_knowledge's own `session` (which session's steps) is a field of its own, listed in every state.
    expect(withSessionArgument(one)).toEqual(["mm_knowledge"])
    const before = changes()
    expect((await call("mm_launch", { name: "second" })).ok).toBe(true)
    expect(changes()).toBe(before + 1)
    const two = await listed()
    expect(two.map((tool) => tool.name)).toContain("mm_sessions")
    // mm_cleanup {session} closes any of them: it stays listed while any session is open.
    expect(two.map((tool) => tool.name)).toContain("mm_cleanup")
    const sessionTools = ["mm_sessions", "mm_cleanup", "mm_navigate", "mm_click", "mm_describe_screen", "mm_get_state", "mm_run_steps"]
    expect(withSessionArgument(two)).toEqual(expect.arrayContaining([...sessionTools, "mm_knowledge"]))
    expect(two.find((tool) => tool.name === "mm_click")!.inputSchema.properties).toMatchObject({ session: { type: "string" } })
    // Each call can name its session; closing the second leaves one, and the list it had.
    expect((await call("mm_sessions", { action: "switch", session: "s1" })).result.current).toMatchObject({ id: "s1", current: true })
    expect((await call("mm_sessions", { action: "close", session: "second" })).result).toEqual({ closed: "s2" })
    expect((await listed()).map((tool) => tool.name)).toEqual(names)
    expect(withSessionArgument(await listed())).toEqual(["mm_knowledge"])
  })

  it("--shared-browser keeps the launch name: listed, a session argument, closed by it; a name like an id is refused", async () => {
    const { call } = await connect(wire.runtime(mockSessionRegistry({ shared: true }).layer))
    expect((await call("mm_launch", { name: "mm-web" })).error?.code).toBe("MM_INVALID_INPUT")
    expect((await call("mm_launch", { name: "web" })).result.sessionId).toBe("s1")
    expect((await call("mm_sessions", { action: "list" })).result.sessions).toEqual([expect.objectContaining({ id: "s1", name: "web", current: true })])
    expect((await call("mm_get_state", { session: "web" })).error).toBeUndefined()
    expect((await call("mm_get_state", { session: "other" })).error?.code).toBe("MM_SESSION_NOT_FOUND")
    expect((await call("mm_cleanup", { session: "web" })).result).toEqual({ cleanedUp: true })
    // The next session is a new one: the old name is not carried over.
    await call("mm_launch")
    expect((await call("mm_sessions", { action: "list" })).result.sessions[0]).not.toHaveProperty("name")
  })

  it("mm_sessions {session} switches to a session that is not the current one, and lists them otherwise", async () => {
    const { call } = await connect(registryWorld())
    await call("mm_launch", { name: "a" })
    await call("mm_launch", { name: "b" })
    expect((await call("mm_sessions", { session: "a" })).result.current).toMatchObject({ id: "s1", name: "a", current: true })
    const listing = (await call("mm_sessions", { session: "a" })).result.sessions
    expect(listing.map((session: { id: string }) => session.id)).toEqual(["s1", "s2"])
    const state = await call("mm_get_state")
    expect(state.error).toBeUndefined()
    expect((await call("mm_sessions")).result.sessions.find((session: { current?: true }) => session.current).id).toBe("s1")
  })

  it("the current session closed while another is open: the session tools, their session argument and mm_sessions stay listed, and the error names only listed tools", async () => {
    const { client, call, names } = await connect(registryWorld())
    const listed = async () => (await client.listTools()).tools
    await call("mm_launch", { name: "a" })
    await call("mm_launch", { name: "b" })
    // The agent is told which of its sessions still run (one that closed "the browser" may think all is closed).
    expect((await call("mm_cleanup", { session: "b" })).result).toEqual({ cleanedUp: true, stillOpen: ["a"] })
    const left = await listed()
    const leftNames = left.map((tool) => tool.name)
    expect(leftNames).toEqual(expect.arrayContaining(["mm_sessions", "mm_cleanup", "mm_launch", ...PAGE_TOOLS]))
    expect(left.find((tool) => tool.name === "mm_get_state")!.inputSchema.properties).toMatchObject({ session: { type: "string" } })
    // Called without session, it says which one closed and how to switch: every tool it names is listed.
    const refused = await call("mm_get_state")
    expect(refused.error?.code).toBe("MM_NO_ACTIVE_SESSION")
    expect(refused.error?.message).toContain("your current one (s2) was closed by mm_cleanup")
    for (const named of refused.error!.message.match(/mm_[a-z_]+/g)!) expect(leftNames).toContain(named)
    expect(refused.error?.message).toContain("mm_sessions")
    // Named, it runs there; mm_sessions {session} makes it current, and the list is the one-session list again.
    expect((await call("mm_get_state", { session: "a" })).ok).toBe(true)
    expect((await call("mm_sessions", { session: "a" })).result.current).toMatchObject({ id: "s1", current: true })
    expect(await names()).not.toContain("mm_sessions")
    // The last one closed: the list before a launch, and the error names only mm_launch.
    await call("mm_cleanup")
    expect(await names()).toEqual(BEFORE_LAUNCH)
    const none = await call("mm_get_state")
    expect(none.error?.message).toBe("mm_get_state needs a running session: your current one (s1) was closed by mm_cleanup. Call mm_launch to start a new one.")
  })

  it("at the session limit with one current session, the error says mm_cleanup, which is listed", async () => {
    const world = mockSessionRegistry({ maxSessions: 1 })
    const { call, names } = await connect(wire.runtime(world.layer))
    await call("mm_launch")
    const refused = await call("mm_launch")
    expect(refused.error?.code).toBe("MM_SESSION_LIMIT")
    expect(refused.error?.message).toContain("your current one; close it with mm_cleanup")
    const listedNow = await names()
    for (const named of refused.error!.message.match(/mm_[a-z_]+/g)!) expect(listedNow).toContain(named)
  })

  it("a fixed list (--static-tools) lists mm_sessions, mm_cleanup and every session argument whatever the count", async () => {
    const { client } = await connect(registryWorld(), { staticTools: true })
    const tools = (await client.listTools()).tools
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["mm_sessions", "mm_cleanup"]))
    expect(tools.find((tool) => tool.name === "mm_click")!.inputSchema.properties).toMatchObject({ session: { type: "string" } })
  })
})

describe("--static-tools", () => {
  it("one fixed list with every group on and without hide/show; no notifications; calls still need their session", async () => {
    const { client, names, call, changes } = await connect(runtimeOf(mockWorld()), { staticTools: true })
    const fixed = await names()
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(false)
    expect(fixed).toEqual(expect.arrayContaining(["mm_launch", ...PAGE_TOOLS, ...TAB_TOOLS, ...EXTENSION_TOOLS, "mm_debugger_probe"]))
    expect(fixed).not.toContain("mm_hide_tools")
    expect(fixed).not.toContain("mm_build")
    for (const old of OLD_NAMES) expect(fixed).not.toContain(old)
    expect((await call("mm_click", { testId: "x" })).error?.code).toBe("MM_NO_ACTIVE_SESSION")
    await call("mm_launch")
    expect(await names()).toEqual(fixed)
    expect(changes()).toBe(0)
    expect((await call("mm_hide_tools", { tools: ["mm_click"] })).error?.code).toBe("MM_TOOL_UNAVAILABLE")
  })
})

describe("tools/list content", () => {
  /** Every property schema below a JSON Schema, with its path. */
  const properties = (schema: Record<string, any>, path: string): Array<[string, Record<string, any>]> => {
    const own = Object.entries((schema.properties ?? {}) as Record<string, Record<string, any>>).flatMap(([name, property]) => [
      [`${path}.${name}`, property] as [string, Record<string, any>],
      ...properties(property, `${path}.${name}`),
      ...(property.items ? properties(property.items, `${path}.${name}[]`) : [])
    ])
    return own
  }

  it("has no generated titles or schema noise, and every property of every tool has a description", async () => {
    const build = Build.layer({ description: "test build", run: () => Effect.succeed({ durationMs: 1, outputTail: "ok" }) })
    const { client } = await connect(runtimeOf(mockWorld(), build), { staticTools: true, caps: ["all"] })
    const listed = await client.listTools()
    const json = JSON.stringify(listed)
    expect(json).not.toMatch(/"title":/)
    // Constraints are listed as decoding enforces them (issue 22; test/mcp/published-schemas.test.ts), Effect's own wording never.
    expect(json).not.toMatch(/"\$schema"|"\$id"|"\$ref"|"title":"(minLength|maxLength|int|between)/)
    // The element fields of every element tool, and every session tool's session, are described once, in the server's instructions.
    const inInstructions = ["a11yRef", "testId", "selector", "session"]
    for (const field of inInstructions) expect(client.getInstructions()).toContain(field)
    const registry = registryOf([...builtinTools, debuggerProbe])
    const described = (path: string, property: Record<string, any>) =>
      (typeof property.description === "string" && property.description.length > 0) || inInstructions.includes(path.split(".").at(-1)!)
    // Every field's definition describes it; the list leaves out only the descriptions of fields marked Evident.
    const undescribed = listed.tools.flatMap((tool) =>
      properties(inputJsonSchema(registry.lookup(tool.name)!.input, { full: true }), tool.name).flatMap(([path, property]) =>
        described(path, property) ? [] : [path]
      )
    )
    expect(undescribed).toEqual([])
    const evident = listed.tools.flatMap((tool) =>
      properties(tool.inputSchema as Record<string, any>, tool.name).flatMap(([path, property]) => (described(path, property) ? [] : [path]))
    )
    expect(evident).toEqual(expect.arrayContaining(["mm_navigate.newTab", "mm_screenshot.fullPage", "mm_run_steps.steps[].tool"]))
    expect(evident).not.toContain("mm_find.text")
    expect(json).not.toMatch(/"description":""/)
    // Compatibility fields are accepted but not listed.
    const launch = listed.tools.find((tool) => tool.name === "mm_launch")!
    expect(Object.keys(launch.inputSchema.properties ?? {})).not.toContain("autoBuild")
  })

  it("the largest default state (a second session, an extension, two tabs, every conditional tool) lists at most 0.6x of Playwright MCP's bytes", () => {
    // What bench:tools measures over real Chromium (docs/tools.md), from the definitions: a tool or field
    // added to these states shows here first. @playwright/mcp 0.0.83 lists 20,296 bytes by default.
    const registry = makeRegistry([...builtinTools, makeRunSteps()], "mm")
    const largest = ["launch", "cleanup", "sessions", "describe_screen", "navigate", "click", "type", "press_key", "select_option", "hover", "drag", "set_checked", "upload_file", "scroll", "wait_for", "get_text", "find", "screenshot", "get_state", "tabs", "wait_for_notification", "extension_storage", "console_messages", "knowledge", "hide_tools", "run_steps"]
    const tools = largest.map((name) => describeTool(registry, registry.lookup(name)!))
    const bytes = Buffer.byteLength(JSON.stringify({ tools }))
    expect(bytes).toBeLessThanOrEqual(Math.floor(20_296 * 0.6))
    // With one session, no mm_sessions and no session argument.
    const one = largest.filter((name) => name !== "sessions").map((name) => describeTool(registry, registry.lookup(name)!, { sessionArgument: false }))
    expect(Buffer.byteLength(JSON.stringify({ tools: one }))).toBeLessThan(bytes - 600)
  })

  it("results carry the envelope as JSON text only, unless structured output is asked for", async () => {
    const plain = await connect(runtimeOf(mockWorld()))
    const result = await plain.client.callTool({ name: "mm_knowledge_last", arguments: { scope: "all" } })
    expect(result.structuredContent).toBeUndefined()
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ ok: true, result: { steps: [] } })
    const structured = await connect(runtimeOf(mockWorld()), { structuredOutput: true })
    const tools = await structured.client.listTools()
    expect(tools.tools.every((tool) => tool.outputSchema?.type === "object")).toBe(true)
    const typed = await structured.client.callTool({ name: "mm_knowledge_last", arguments: { scope: "all" } })
    expect(typed.structuredContent).toMatchObject({ ok: true, result: { steps: [] } })
  })
})
