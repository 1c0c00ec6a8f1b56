// The debugger's tools inside mm_run_steps: a batch sets a breakpoint, clicks into it, steps, evaluates
// on the frame, is refused a page action while paused, resumes and reads the result; each step goes
// through the same gate as a single call. Real Chromium, pages served on 127.0.0.1.
import { describe, expect, it } from "vitest"
import { lineOf, pageForFile } from "./support.js"

const app = `function handler() {
  let count = 1
  count = count + 1
  count = count * 10
  document.getElementById("out").textContent = "count " + count
}
document.getElementById("go").addEventListener("click", handler)
`

const page = `<!doctype html><html><head><title>Batch</title></head><body>
<button id="go">Go</button><p id="out">idle</p><script src="/app.js"></script>
</body></html>`

const harness = pageForFile({ "/": page, "/app.js": app })

describe("the debugger inside mm_run_steps", () => {
  it("breakpoint, click into it, step, evaluate, a refused click, resume, read: one batch", async () => {
    const line = lineOf(app, "count = count + 1")
    const batch = await harness.call("mm_run_steps", {
      steps: [
        { tool: "mm_debugger", args: { action: "enable" } },
        { tool: "mm_breakpoint", args: { action: "set", url: "app.js", line } },
        { tool: "mm_click", args: { selector: "#go" } },
        { tool: "mm_step", args: { direction: "over" } },
        { tool: "mm_evaluate_frame", args: { expression: "count * 3" } },
        { tool: "mm_click", args: { selector: "#go" } },
        { tool: "mm_debugger", args: { action: "resume" } },
        { tool: "mm_get_text", args: { selector: "#out" } }
      ]
    })
    // Two clicks were refused (paused): the batch ran every step and says which failed (MM_BATCH_FAILED).
    expect(batch.ok).toBe(false)
    expect(batch.error).toMatchObject({ code: "MM_BATCH_FAILED" })
    const steps = batch.result.steps as ReadonlyArray<any>
    expect(steps.map((step) => step.ok)).toEqual([true, true, false, true, true, false, true, true])
    expect(steps[1].result.breakpoint).toMatchObject({ id: "bp1", resolved: [{ url: `${harness.url}/app.js`, line }] })
    // The click that hit the breakpoint answers with the pause's context.
    expect(steps[2].error).toMatchObject({
      code: "MM_DEBUGGER_PAUSED",
      details: { pause: { reason: "breakpoint", breakpoint: "bp1", location: { line, function: "handler" }, locals: { count: "1" } } }
    })
    expect(steps[3].result.paused).toMatchObject({ reason: "step", location: { line: line + 1 }, locals: { count: "2" }, changed: ["count"] })
    expect(steps[4].result).toEqual({ type: "number", value: 6 })
    expect(steps[5].error.code).toBe("MM_DEBUGGER_PAUSED")
    expect(steps[5].error.message).toContain(`mm_click cannot run while tab t1 is paused in the debugger at app.js:${line + 1}`)
    expect(steps[6].result).toEqual({ running: true })
    expect(steps[7].result.text).toBe("count 20")
    // The batch ends with the page running: the list is the page's own again.
    expect(await harness.names()).toContain("mm_click")
    expect(await harness.names()).not.toContain("mm_step")

    // The flow keeps the click that was delivered and paused (the one refused while paused never ran);
    // the debugging steps never replay.
    const exported = await harness.call("mm_knowledge_export", { format: "batch" })
    expect(exported.ok).toBe(true)
    const replay = JSON.parse(exported.result.content) as { steps: ReadonlyArray<{ tool: string; args: Record<string, unknown> }> }
    const tools = replay.steps.map((step) => step.tool)
    expect(tools.filter((tool) => tool === "mm_click")).toHaveLength(1)
    expect(tools.some((tool) => ["mm_debugger", "mm_breakpoint", "mm_step", "mm_evaluate_frame"].includes(tool))).toBe(false)
    expect(replay.steps.find((step) => step.tool === "mm_click")?.args).toMatchObject({ selector: "#go" })
  })
})
