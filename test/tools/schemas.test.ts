// Every tool's input schema: defaults, bounds, targets, and the JSON Schema MCP clients see.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { describeTool } from "../../src/mcp/server.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import { decodeInput } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { accessibilitySnapshot, describeScreen, getState, listTestIds } from "../../src/tools/discovery.js"
import { click, getText, hover, pressKey, selectOption, type, waitFor } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { builtinTools } from "../../src/tools/registry.js"
import { screenshot } from "../../src/tools/screenshot.js"
import { cleanup, launch } from "../../src/tools/session.js"

const decode = (tool: AnyToolDefinition, raw: unknown) => Effect.runSync(Effect.either(decodeInput(tool.input, raw)))

const ok = (tool: AnyToolDefinition, raw: unknown) => {
  const result = decode(tool, raw)
  if (Either.isLeft(result)) throw new Error(`expected ${JSON.stringify(raw)} to decode: ${result.left.message}`)
  return result.right
}

const field = (tool: AnyToolDefinition, raw: unknown) => {
  const result = decode(tool, raw)
  if (Either.isRight(result)) throw new Error(`expected ${JSON.stringify(raw)} to be rejected`)
  expect(result.left.code).toBe("MM_INVALID_INPUT")
  return result.left.field
}

describe("targeting tools", () => {
  for (const tool of [click, type, waitFor, getText, selectOption, hover]) {
    const extra = tool === type ? { text: "x" } : tool === selectOption ? { values: ["a"] } : {}
    it(`${tool.name} accepts exactly one of a11yRef, testId, selector, with an optional within`, () => {
      expect(ok(tool, { testId: "a", ...extra })).toMatchObject({ testId: "a" })
      expect(ok(tool, { a11yRef: "e12", ...extra })).toMatchObject({ a11yRef: "e12" })
      expect(ok(tool, { selector: "button.primary", within: { testId: "dialog" }, ...extra })).toMatchObject({
        within: { testId: "dialog" }
      })
    })
    it(`${tool.name} rejects no target, two targets and a malformed ref, naming the field`, () => {
      expect(field(tool, { ...extra })).toBe("a11yRef")
      expect(field(tool, { testId: "a", selector: "b", ...extra })).toBe("a11yRef")
      expect(field(tool, { a11yRef: "button-1", ...extra })).toBe("a11yRef")
      expect(field(tool, { testId: "a", within: {}, ...extra })).toBe("within.a11yRef")
      expect(field(tool, { testId: "a", within: { testId: "a", selector: "b" }, ...extra })).toBe("within.a11yRef")
      expect(field(tool, { testId: "", ...extra })).toBe("testId")
    })
  }

  it("a parent or drop target given as a bare ref says what to give, not the schema's type", () => {
    const drag = builtinTools.find((tool) => tool.name === "drag")!
    for (const [tool, raw, at] of [
      [drag, { testId: "card", to: "e233" }, "to"],
      [click, { testId: "a", within: "e5" }, "within"]
    ] as const) {
      const result = decode(tool, raw)
      if (Either.isRight(result)) throw new Error(`expected ${JSON.stringify(raw)} to be rejected`)
      expect(result.left.field).toBe(at)
      expect(result.left.message).toContain('an object naming one element: {"a11yRef": "e5"}')
      expect(result.left.message).not.toContain("readonly")
    }
  })

  it("press_key takes Playwright key names and chords, with or without a target", () => {
    for (const key of ["Enter", "Escape", "ArrowDown", "Control+A", "ControlOrMeta+Shift+KeyZ", "a", "+", " ", "F12", "Shift+Tab"]) {
      expect(ok(pressKey, { key })).toMatchObject({ key, timeoutMs: 15_000 })
    }
    expect(ok(pressKey, { key: "Enter", testId: "search" })).toMatchObject({ testId: "search" })
    for (const key of ["", "Ctrl+A", "enter", "Control+", "ab", "F25"]) expect(field(pressKey, { key })).toBe("key")
    expect(field(pressKey, { key: "Enter", testId: "a", selector: "b" })).toBe("a11yRef")
    expect(field(pressKey, { key: "Enter", within: { testId: "form" } })).toBe("within")
  })

  it("select_option needs 1 to 100 values", () => {
    expect(ok(selectOption, { testId: "country", values: ["fr", "Germany"] })).toMatchObject({ values: ["fr", "Germany"] })
    expect(field(selectOption, { testId: "country", values: [] })).toBe("values")
    expect(field(selectOption, { testId: "country" })).toBe("values")
  })

  it("navigate goes back, forward or reloads without a url", () => {
    for (const screen of ["back", "forward", "reload"]) expect(ok(navigate, { screen })).toMatchObject({ screen })
  })

  it("click defaults timeoutMs to 15000 and bounds it to 0..60000", () => {
    expect(ok(click, { testId: "a" })).toMatchObject({ timeoutMs: 15_000 })
    expect(field(click, { testId: "a", timeoutMs: 60_001 })).toBe("timeoutMs")
    expect(field(click, { testId: "a", timeoutMs: -1 })).toBe("timeoutMs")
  })

  it("wait_for defaults to visible and bounds timeoutMs to 100..120000", () => {
    expect(ok(waitFor, { testId: "a" })).toMatchObject({ state: "visible", timeoutMs: 15_000 })
    expect(ok(waitFor, { testId: "a", state: "hidden" })).toMatchObject({ state: "hidden" })
    expect(field(waitFor, { testId: "a", timeoutMs: 50 })).toBe("timeoutMs")
    expect(field(waitFor, { testId: "a", state: "gone" })).toBe("state")
  })

  it("type requires text", () => {
    expect(field(type, { testId: "a" })).toBe("text")
  })
})

describe("other tools", () => {
  it("launch has upstream defaults and bounds slowMo", () => {
    expect(ok(launch, {})).toMatchObject({ stateMode: "default", flowTags: [], tags: [], slowMo: 0, force: false })
    expect(field(launch, { slowMo: 10_001 })).toBe("slowMo")
    expect(field(launch, { stateMode: "weird" })).toBe("stateMode")
    const fixture = { origins: [{ origin: "http://127.0.0.1:1", localStorage: [{ name: "a", value: "b" }] }] }
    expect(ok(launch, { fixture })).toMatchObject({ fixture: { cookies: [] } })
  })

  it("navigate needs url for the url screen", () => {
    expect(ok(navigate, { screen: "home" })).toMatchObject({ screen: "home", timeoutMs: 30_000 })
    expect(field(navigate, { screen: "url" })).toBe("url")
    expect(field(navigate, { screen: "elsewhere" })).toBe("screen")
  })

  it("list_testids limit is 1..500, default 150", () => {
    expect(ok(listTestIds, {})).toEqual({ limit: 150 })
    expect(field(listTestIds, { limit: 0 })).toBe("limit")
    expect(field(listTestIds, { limit: 501 })).toBe("limit")
  })

  it("accessibility_snapshot takes rootSelector and a limit", () => {
    expect(ok(accessibilitySnapshot, { rootSelector: "#main" })).toEqual({ rootSelector: "#main", limit: 400 })
    expect(field(accessibilitySnapshot, { rootSelector: "" })).toBe("rootSelector")
  })

  it("describe_screen defaults to no screenshot", () => {
    expect(ok(describeScreen, {})).toEqual({ includeScreenshot: false, includeScreenshotBase64: false, includeImage: false })
  })

  it("screenshot needs a name of 1..100 characters and defaults to the viewport without base64", () => {
    expect(ok(screenshot, { name: "x" })).toEqual({ name: "x", fullPage: false, includeBase64: false, includeImage: false })
    expect(field(screenshot, {})).toBe("name")
    expect(field(screenshot, { name: "x".repeat(101) })).toBe("name")
  })

  it("get_state and cleanup take no required input and reject unknown fields", () => {
    expect(ok(getState, {})).toEqual({})
    expect(ok(cleanup, {})).toEqual({})
    expect(field(getState, { verbose: true })).toBe("verbose")
  })
})

describe("tools/list entries", () => {
  const registry = makeRegistry(builtinTools, "mm")

  for (const tool of builtinTools) {
    it(`${tool.name} has an object-root input schema without $ref, no title, and readOnlyHint exactly when read-only`, () => {
      const entry = describeTool(registry, tool)
      expect(entry.name).toBe(`mm_${tool.name}`)
      expect(entry.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/)
      expect(entry.title).toBeUndefined()
      expect(entry.outputSchema).toBeUndefined()
      expect(entry.description?.length).toBeGreaterThan(30)
      expect(entry.inputSchema.type).toBe("object")
      expect(JSON.stringify(entry.inputSchema)).not.toContain("$ref")
      expect(entry.annotations?.readOnlyHint === true).toBe(tool.annotations.readOnly)
      // Fields with defaults are optional for the caller.
      const required = (entry.inputSchema.required ?? []) as ReadonlyArray<string>
      expect(required).not.toContain("timeoutMs")
      expect(required).not.toContain("limit")
      // Asked for, the output schema is the envelope around the result, with an object root.
      expect(describeTool(registry, tool, { outputSchema: true }).outputSchema?.type).toBe("object")
    })
  }

  it("looks tools up with or without the prefix", () => {
    expect(registry.lookup("mm_click")).toBe(click)
    expect(registry.lookup("click")).toBe(click)
    expect(registry.lookup("mm_nope")).toBeUndefined()
    expect(makeRegistry(builtinTools, "").servedName(click)).toBe("click")
  })

  it("every output schema accepts what its tool is documented to return", () => {
    const encode = Schema.encodeUnknownSync(click.output)
    expect(encode({ clicked: true, pageClosedAfterClick: true })).toEqual({ clicked: true, pageClosedAfterClick: true })
  })
})
