import { it } from "vitest"
import { launchChromium, walk, checkNames } from "./oracle.js"
import { serveCorpus } from "./corpus.js"
import { trickyNames } from "./tricky.js"

const dump = (label: string, result: any) =>
  process.stderr.write(`== ${label}\n` + result.a11y!.nodes.map((n: any) => `${"  ".repeat(n.depth ?? 0)}${n.role} ${JSON.stringify(n.name)} ${n.ref}${n.text ? ": " + n.text : ""}${n.collapsed ? " " + JSON.stringify(n.collapsed) : ""}`).join("\n") + "\n")

it("scratch", async () => {
  const corpus = await serveCorpus({ "/tricky": trickyNames })
  const browser = await launchChromium()
  const page = await browser.newPage()
  const only = process.env.ONLY ?? "tricky,swagger,react,vue"
  if (only.includes("tricky")) {
    await page.goto(`${corpus.url}/tricky`)
    const result = await walk(page)
    dump("tricky", result)
    process.stderr.write(JSON.stringify(await checkNames(page, result.a11y!.nodes), null, 1) + "\n")
  }
  if (only.includes("swagger")) {
    await page.goto(`${corpus.url}/swagger/`)
    await page.locator(".opblock").first().waitFor()
    await page.locator(".opblock-summary-control").first().click()
    await page.getByRole("button", { name: "Try it out" }).click()
    await page.getByPlaceholder("limit").fill("2")
    await page.getByRole("button", { name: "Execute" }).click()
    await page.locator(".live-responses-table .response-col_status").first().waitFor()
    const result = await walk(page)
    dump("swagger", result)
    process.stderr.write(JSON.stringify(await checkNames(page, result.a11y!.nodes), null, 1) + "\n")
    process.stderr.write(`aria ${(await page.locator("body").ariaSnapshot()).length}\n`)
  }
  for (const fw of ["react", "vue"]) {
    if (!only.includes(fw)) continue
    await page.goto(`${corpus.url}/todomvc/${fw}/`)
    const input = page.getByPlaceholder("What needs to be done?")
    for (const item of ["Buy milk", "Walk the dog", "Write tests"]) { await input.fill(item); await input.press("Enter") }
    await page.locator(".toggle").nth(1).check()
    const result = await walk(page)
    dump(fw, result)
    process.stderr.write(JSON.stringify(await checkNames(page, result.a11y!.nodes), null, 1) + "\n")
  }
  await browser.close()
  await corpus.close()
}, 120000)
