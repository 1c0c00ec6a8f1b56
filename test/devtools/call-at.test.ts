// callAt: which recorded call a console message is attributed to, from the calls' spans in time.
import { describe, expect, it } from "vitest"
import { callAt, type CallSpan } from "../../src/tools/devtools.js"

const served = (tool: string) => `mm_${tool}`
const span = (tool: string, start: number, end: number, extra: Partial<CallSpan> = {}): CallSpan => ({
  tool,
  target: undefined,
  start,
  end,
  acts: true,
  ...extra
})

describe("callAt", () => {
  const click = span("click", 100, 200, { target: "testId:save" })
  const wait = span("wait_for", 210, 900, { acts: false, target: "selector:text=done" })
  const navigate = span("navigate", 1_000, 1_500)

  it("is undefined before the first call, and the call itself while it runs", () => {
    expect(callAt([click], 50, served)).toBeUndefined()
    expect(callAt([click], 150, served)).toBe("mm_click testId:save")
  })

  it("between calls, the one it came after", () => {
    expect(callAt([click, navigate], 205, served)).toBe("after mm_click testId:save")
    expect(callAt([click, navigate], 2_000, served)).toBe("after mm_navigate")
  })

  it("during a call that only reads, the last call that acted before it", () => {
    expect(callAt([click, wait, navigate], 500, served)).toBe("after mm_click testId:save")
    // After the read, still the click: the read could not have caused it.
    expect(callAt([click, wait], 950, served)).toBe("after mm_click testId:save")
    // A read with no acting call before it names itself.
    expect(callAt([wait], 500, served)).toBe("mm_wait_for selector:text=done")
  })

  it("the innermost of a batch and its step; a batch is never the call it came after, its steps are", () => {
    const batch = span("run_steps", 90, 1_600)
    expect(callAt([batch, click, wait, navigate], 150, served)).toBe("mm_click testId:save")
    expect(callAt([batch, click, wait, navigate], 500, served)).toBe("after mm_click testId:save")
    expect(callAt([batch, click, wait, navigate], 1_700, served)).toBe("after mm_navigate")
  })
})
