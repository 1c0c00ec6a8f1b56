// The debugger's pure parts: how values preview and are cut, which locals changed, what DevTools matches
// a breakpoint's URL with, why a pause happened, and how a pause's context reads (its size bounds).
import type { Page } from "playwright"
import { describe, expect, it } from "vitest"
import { LOCAL_VALUE_CHARS, PAUSE_CONSOLE, PAUSE_FRAMES, PAUSE_LOCALS } from "../../src/domain/debugger.js"
import {
  changedLocals,
  initialDebugger,
  localValue,
  pauseContextOf,
  pausedIn,
  previewOf,
  protocolTarget,
  reasonOf,
  resumedIn,
  shortUrl,
  type CallFrame,
  type PausedEvent,
  type ScriptFacts
} from "../../src/adapters/playwright/devtools/debugger-state.js"

const page = {} as Page
const otherPage = {} as Page

const frame = (name: string, scriptId: string, line: number): CallFrame => ({
  callFrameId: `${name}-${line}`,
  functionName: name,
  location: { scriptId, lineNumber: line - 1, columnNumber: 2 },
  scopeChain: []
})

const scripts: ReadonlyMap<string, ScriptFacts> = new Map([["1", { url: "http://127.0.0.1:4000/static/app.js", sourceMapped: false }]])

describe("values", () => {
  it("previews like the console and cuts a local at its limit", () => {
    expect(previewOf({ type: "string", value: "hi" })).toBe('"hi"')
    expect(previewOf({ type: "number", value: 3, description: "3" })).toBe("3")
    expect(previewOf({ type: "object", subtype: "null", value: null })).toBe("null")
    expect(previewOf({ type: "function", description: "function handler(event) { return 1 }" })).toBe("ƒ handler(event)")
    expect(
      previewOf({
        type: "object",
        subtype: "array",
        description: "Array(3)",
        preview: { overflow: true, properties: [{ name: "0", type: "number", value: "1" }, { name: "1", type: "string", value: "a" }] }
      })
    ).toBe('[1, "a", …]')
    expect(
      previewOf({ type: "object", className: "Object", description: "Object", preview: { properties: [{ name: "id", type: "number", value: "7" }] } })
    ).toBe("{id: 7}")
    const long = localValue({ type: "string", value: "x".repeat(500) })
    expect(long).toHaveLength(LOCAL_VALUE_CHARS)
    expect(long.endsWith("…")).toBe(true)
  })

  it("marks only the locals that changed in the same function", () => {
    const before = { frameKey: "1:0:0:handler", values: new Map([["count", "1"], ["label", '"a"']]) }
    expect(changedLocals(before, "1:0:0:handler", new Map([["count", "2"], ["label", '"a"'], ["fresh", "0"]]))).toEqual(["count"])
    expect(changedLocals(before, "1:9:0:other", new Map([["count", "2"]]))).toEqual([])
    expect(changedLocals(undefined, "1:0:0:handler", new Map([["count", "2"]]))).toEqual([])
  })
})

describe("breakpoints and pauses", () => {
  it("matches a URL's end by regex, an absolute URL as given", () => {
    const target = protocolTarget({ url: "static/app.js", line: 1 })
    expect(target).toEqual({ urlRegex: "(^|/)static/app\\.js([?#].*)?$" })
    const regex = new RegExp((target as { urlRegex: string }).urlRegex)
    expect(regex.test("http://127.0.0.1:4000/static/app.js?v=2")).toBe(true)
    expect(regex.test("http://127.0.0.1:4000/static/app.jsx")).toBe(false)
    expect(regex.test("http://127.0.0.1:4000/other/app.js")).toBe(false)
    expect(protocolTarget({ url: "http://127.0.0.1:4000/app.js", line: 1 })).toEqual({ url: "http://127.0.0.1:4000/app.js" })
  })

  it("names the reason: breakpoint, pause asked for, debugger statement, exception", () => {
    const event = (reason: string, hit: Array<string> = []): PausedEvent => ({ callFrames: [], reason, hitBreakpoints: hit })
    expect(reasonOf(event("other", ["x"]), false, undefined)).toBe("breakpoint")
    expect(reasonOf(event("other"), true, undefined)).toBe("pause")
    expect(reasonOf(event("other"), false, undefined)).toBe("debugger")
    expect(reasonOf(event("exception"), false, undefined)).toBe("exception")
  })

  it("keeps one pause per tab, newest last, and forgets it when the tab runs", () => {
    const event: PausedEvent = { callFrames: [frame("handler", "1", 5)], reason: "other" }
    const first = pausedIn(initialDebugger, page, "t1", event, scripts)
    const second = pausedIn(first.state, otherPage, "t2", event, scripts)
    const again = pausedIn(second.state, page, "t1", event, scripts)
    expect(again.state.pauses.map((pause) => pause.tabId)).toEqual(["t2", "t1"])
    expect(again.pause.seq).toBe(3)
    expect(resumedIn(again.state, page).pauses.map((pause) => pause.tabId)).toEqual(["t2"])
  })

  it("reads a pause within its bounds: 5 frames, 25 locals, 3 console messages", () => {
    const frames = Array.from({ length: 8 }, (_, index) => frame(index === 0 ? "" : `f${index}`, "1", 10 + index))
    const { pause } = pausedIn(initialDebugger, page, "t1", { callFrames: frames, reason: "other" }, scripts)
    const locals = Array.from({ length: 30 }, (_, index) => [`v${index}`, String(index)] as const)
    const context = pauseContextOf({
      pause,
      locals,
      totalLocals: locals.length,
      changed: ["v1"],
      console: Array.from({ length: 5 }, (_, index) => ({ type: "log", text: `m${index}` })),
      otherPausedTabs: []
    })
    expect(context.location).toEqual({ url: "http://127.0.0.1:4000/static/app.js", line: 10, column: 3, function: "(anonymous)" })
    expect(context.frames).toHaveLength(PAUSE_FRAMES)
    expect(context.frames[1]).toBe("f1 app.js:11:3")
    expect(context.moreFrames).toBe(3)
    expect(Object.keys(context.locals ?? {})).toHaveLength(PAUSE_LOCALS)
    expect(context.moreLocals).toBe(5)
    expect(context.console).toHaveLength(PAUSE_CONSOLE)
    expect(context.console).toEqual(["log: m2", "log: m3", "log: m4"])
    expect(context.changed).toEqual(["v1"])
    expect(context).not.toHaveProperty("otherPausedTabs")
    expect(context).not.toHaveProperty("exception")
  })

  it("names a script by its last path segment", () => {
    expect(shortUrl("http://127.0.0.1:4000/static/app.js?v=1")).toBe("app.js")
    expect(shortUrl("http://127.0.0.1:4000/")).toBe("127.0.0.1:4000")
    expect(shortUrl("")).toBe("(evaluated script)")
  })
})
