// The debugger tests' world: real Chromium (loopback only) behind our MCP server, reached over the SDK
// client (in-memory transport) so that the tool list and its list_changed notifications are what a
// client sees; pages and scripts served on 127.0.0.1 with their content types.
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, expect } from "vitest"
import { servePages, type RunningServer } from "../../demo/serve.js"
import type { Settings } from "../../src/domain/config.js"
import { makeMcpServer } from "../../src/mcp/server.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import { makeRunSteps } from "../../src/tools/batch.js"
import { builtinTools } from "../../src/tools/registry.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { connectClient, type Answer } from "../support/mcp-client.js"

export type Served = RunningServer

/** Serves pages (text/html) and scripts (paths ending in .js, text/javascript) on 127.0.0.1. */
export const serve = servePages

export type { Answer }

export interface Harness {
  readonly settings: Settings
  readonly call: (name: string, args?: Record<string, unknown>) => Promise<Answer>
  readonly names: () => Promise<ReadonlyArray<string>>
  /** Bytes of the tools/list result as the client receives it (its JSON). */
  readonly listBytes: () => Promise<number>
  /** tools/list_changed notifications received so far. */
  readonly changes: () => number
  readonly close: () => Promise<void>
}

/** Our server over a real browser, with the given opt-in groups, and a client connected to it. */
export const connect = async (caps: ReadonlyArray<string> = ["debugger"], overrides: Partial<Settings> = {}): Promise<Harness> => {
  const settings = testSettings(overrides)
  const runtime = ManagedRuntime.make(liveLayer(settings))
  const registry = makeRegistry([...builtinTools, makeRunSteps()], "mm")
  const server = makeMcpServer(registry, runtime, { caps })
  const { client, call, names, changes } = await connectClient(server, "debugger-test")
  return {
    settings,
    call,
    names,
    listBytes: async () => Buffer.byteLength(JSON.stringify(await client.listTools())),
    changes,
    close: async () => {
      await client.close()
      await runtime.dispose()
    }
  }
}

/** A harness whose session is open on the served files' "/" page; `url` is their origin, `close` stops both. */
export interface OnPage extends Harness {
  readonly url: string
}

/** Serves the files, connects with the opt-in groups, launches and opens "/" (closing everything if that fails). */
export const openPage = async (
  files: Readonly<Record<string, string>>,
  caps: ReadonlyArray<string> = ["debugger"],
  overrides: Partial<Settings> = {}
): Promise<OnPage> => {
  const served = await serve(files)
  let harness: Harness | undefined
  try {
    harness = await connect(caps, overrides)
    expect((await harness.call("mm_launch")).ok).toBe(true)
    expect((await harness.call("mm_navigate", { screen: "url", url: `${served.url}/` })).ok).toBe(true)
  } catch (error) {
    await harness?.close()
    await served.close()
    throw error
  }
  const opened = harness
  return {
    ...opened,
    url: served.url,
    close: async () => {
      await opened.close()
      await served.close()
    }
  }
}

/**
 * One page for a whole test file: openPage before its tests, closed after them. The answer delegates to
 * the page opened then, so a file declares it at the top and its tests use it as a Harness.
 */
export const pageForFile = (files: Readonly<Record<string, string>>, caps?: ReadonlyArray<string>, overrides?: Partial<Settings>): OnPage => {
  let opened: OnPage | undefined
  beforeAll(async () => {
    opened = await openPage(files, caps, overrides)
  })
  afterAll(async () => {
    await opened?.close()
  })
  const live = () => {
    if (opened === undefined) throw new Error("the page is not open (its beforeAll failed)")
    return opened
  }
  return {
    get settings() {
      return live().settings
    },
    get url() {
      return live().url
    },
    call: (name, args) => live().call(name, args),
    names: () => live().names(),
    listBytes: () => live().listBytes(),
    changes: () => live().changes(),
    close: () => live().close()
  }
}

/** The tools listed while a tab is paused: the stepping set, state, screenshot and the console (registry order). */
export const STEPPING_SET = ["mm_screenshot", "mm_get_state", "mm_debugger", "mm_breakpoint", "mm_step", "mm_evaluate_frame", "mm_console_messages"]

/** A line of a script, 1-based, found by its text: tests name lines by what is on them. */
export const lineOf = (source: string, text: string): number => {
  const index = source.split("\n").findIndex((line) => line.includes(text))
  if (index < 0) throw new Error(`no line contains ${text}`)
  return index + 1
}
