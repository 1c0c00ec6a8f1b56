// The floor of the parallel bench: the same flows as a plain Playwright script, with no MCP server, a
// context per agent in one browser (the same binary and flags), all at once. What it costs in CPU and wall
// time is what the page work itself costs (a context, TodoMVC's in-page JSX compiling, the sign-in): no
// MCP server can go below it, so it bounds what a ratio against another server can reach.
import { chromium, type Page } from "playwright"
import { LOOPBACK_ARGS, withDisabledFeatures } from "../../src/adapters/playwright/lifecycle/launch.js"
import { type App, itemsOf, todoViolations } from "./flows.js"
import type { Measurement, Outcome, Plan } from "./run.js"
import { browserTreeMemory, cpuTreeOf, executablePath } from "./servers.js"

/** One agent's flow on `app` through Playwright's own API; answers the violations it read. */
export const flow = async (page: Page, k: number, app: App, plan: Plan): Promise<number> => {
  if (app === "todo") {
    await page.goto(plan.urls.todo)
    const field = page.getByRole("textbox", { name: "What needs to be done?" })
    for (const item of itemsOf(k)) {
      await field.fill(item)
      await field.press("Enter")
    }
    await page.getByRole("listitem").filter({ hasText: itemsOf(k)[1]! }).getByRole("checkbox").check()
    const items = await page.getByRole("listitem").evaluateAll((elements) =>
      elements.map((element) => `listitem: ${element.textContent ?? ""}\n  checkbox${element.querySelector("input:checked") ? " [checked]" : ""}`)
    )
    return todoViolations(k, items.join("\n"))
  }
  await page.goto(plan.urls.sample)
  await page.getByRole("textbox", { name: "Username" }).fill(`agent${k}`)
  await page.getByRole("textbox", { name: "Password" }).fill("correct horse")
  await page.getByRole("button", { name: "Sign in" }).click()
  const welcome = await page.getByTestId("welcome").filter({ hasText: "Welcome," }).textContent()
  return welcome === `Welcome, agent${k}` ? 0 : 1
}

/**
 * The switches of a browser our server launches with --loopback-only (the features it turns off included):
 * the floor and the second browser run on what our sessions run on.
 */
export const PLAIN_ARGS = withDisabledFeatures([...LOOPBACK_ARGS])

/**
 * n agents at once, each its own context, from the browser's launch (included) to the last read-back. The
 * CPU is the browser's whole process tree (it starts within the wall time); Playwright's client side runs
 * in this bench's process and is not counted (the MCP servers' Playwright is).
 */
export const plain = async (plan: Plan, n: number, run: number): Promise<Measurement> => {
  const started = performance.now()
  const server = await chromium.launchServer({ executablePath, headless: true, args: PLAIN_ARGS })
  try {
    const pid = server.process().pid!
    const browser = await chromium.connect(server.wsEndpoint())
    const agents = await Promise.all(
      Array.from({ length: n }, async (_, i): Promise<Outcome> => {
        let violations = 0
        try {
          const page = await (await browser.newContext()).newPage()
          for (const app of plan.apps) violations += await flow(page, i + 1, app, plan)
          return { violations, calls: 0, bytes: 0 }
        } catch (error) {
          return { failure: (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 120), violations, calls: 0, bytes: 0 }
        }
      })
    )
    const wallMs = performance.now() - started
    const used = cpuTreeOf(pid)
    // The browser's whole tree (its main process too: there is no server process of ours here).
    const memory = { server: 0, ...browserTreeMemory(pid) }
    await browser.close()
    return { kind: "plain", n, run, wallMs, agents, memory, cpu: { server: 0, browser: used.server + used.browser } }
  } finally {
    await server.close()
  }
}
