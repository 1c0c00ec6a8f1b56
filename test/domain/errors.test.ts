import { describe, expect, it } from "@effect/vitest"
import { ActionFailed, ActionTimeout, ToolError, isToolError, toErrorInfo } from "../../src/domain/errors.js"

describe("errors", () => {
  it("per-action codes stay as clients know them, derived from the action's name", () => {
    const codes = (action: string) => [
      new ActionTimeout({ action, target: "x", timeoutMs: 1 }).code,
      new ActionFailed({ action, target: "x", detail: "d" }).code
    ]
    expect(codes("click")).toEqual(["MM_CLICK_TIMEOUT", "MM_CLICK_FAILED"])
    expect(codes("type")).toEqual(["MM_TYPE_TIMEOUT", "MM_TYPE_FAILED"])
    expect(codes("get_text")).toEqual(["MM_GETTEXT_TIMEOUT", "MM_GETTEXT_FAILED"])
    expect(codes("press_key")).toEqual(["MM_PRESS_KEY_TIMEOUT", "MM_PRESS_KEY_FAILED"])
    expect(codes("select_option")).toEqual(["MM_SELECT_TIMEOUT", "MM_SELECT_FAILED"])
    expect(codes("hover")).toEqual(["MM_HOVER_TIMEOUT", "MM_HOVER_FAILED"])
    expect(codes("drag")).toEqual(["MM_DRAG_TIMEOUT", "MM_DRAG_FAILED"])
    expect(codes("scroll")).toEqual(["MM_SCROLL_TIMEOUT", "MM_SCROLL_FAILED"])
    expect(codes("set_checked")).toEqual(["MM_SET_CHECKED_TIMEOUT", "MM_SET_CHECKED_FAILED"])
    expect(codes("upload_file")).toEqual(["MM_UPLOAD_TIMEOUT", "MM_UPLOAD_FAILED"])
  })

  it("the union schema knows all 47 errors, each with a distinct tag", () => {
    const tags = ToolError.members.map((member) => member.identifier)
    expect(tags).toHaveLength(47)
    expect(new Set(tags).size).toBe(47)
    const error = new ActionTimeout({ action: "click", target: "testId:save", timeoutMs: 5 })
    expect(isToolError(error)).toBe(true)
    expect(isToolError(new Error("x"))).toBe(false)
    expect(toErrorInfo(error)).toEqual({ code: "MM_CLICK_TIMEOUT", message: error.message, details: { target: "testId:save", timeoutMs: 5 } })
  })
})
