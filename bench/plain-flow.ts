// The plain Playwright contender of bench/flow's cold column, as a user would write it: a script of its
// own that imports Playwright, launches Chromium and runs the 5 steps. The bench spawns it with Node, as
// a client spawns our server, and reads the time its flow ended from its stdout.
// Usage: node plain-flow.js URL EXECUTABLE [ARG...]
import { chromium } from "playwright"

const [url, executablePath, ...args] = process.argv.slice(2)
if (url === undefined || executablePath === undefined) throw new Error("usage: plain-flow URL EXECUTABLE [ARG...]")

const browser = await chromium.launch({ executablePath, headless: true, args })
const page = await browser.newPage()
await page.goto(url)
await page.locator("[data-testid=username]").fill("alice")
await page.locator("[data-testid=password]").fill("correct horse")
await page.locator("[data-testid=login-submit]").click()
await page.getByText("Welcome, alice").waitFor()
process.stdout.write("done\n")
await browser.close()
