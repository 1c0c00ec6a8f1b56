import { Effect, Layer } from "effect"
import * as Playwright from "./dist/src/adapters/playwright/index.js"
import * as KnowledgeFiles from "./dist/src/adapters/knowledge-files.js"
import { LOOPBACK_ARGS } from "./dist/src/adapters/playwright/launch.js"
import { defaultSettings } from "./dist/src/domain/config.js"
import { Config } from "./dist/src/services/Config.js"
import { runTool } from "./dist/src/runtime/runTool.js"
import { launch } from "./dist/src/tools/session.js"
import { navigate } from "./dist/src/tools/navigation.js"
import { getState } from "./dist/src/tools/discovery.js"
import { servePages } from "./dist/demo/sample-app.js"
const rate = Number(process.argv[2] ?? 2000)
const flood = `<title>F</title><script>
  const started = performance.now(); let sent = 0
  const timer = setInterval(() => { const el = (performance.now() - started) / 1000; if (el >= 10) { clearInterval(timer); return }
    const due = Math.floor(el * ${rate}) - sent; for (let i = 0; i < due; i++) { sent++; console.log("flood message", sent, { sent, at: el }) } }, 10)
</script>`
const app = await servePages({ "/flood": flood, "/quiet": "<title>Q</title>quiet" })
const settings = { ...defaultSettings, artifactsDir: "/tmp/bwm-exp-art", browserArgs: [...LOOPBACK_ARGS] }
const layer = Layer.mergeAll(Playwright.layer, KnowledgeFiles.layerFileSystem(settings.artifactsDir)).pipe(Layer.provide(Config.layer(settings)))
const heap = () => { global.gc(); global.gc(); return Math.round(process.memoryUsage().heapUsed / 1e5) / 10 }
await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
  yield* runTool(launch)({})
  yield* runTool(navigate)({ screen: "url", url: app.url + "/quiet" })
  console.log("heap after launch MB", heap(), "rss", Math.round(process.memoryUsage().rss / 1e6))
  for (let i = 0; i < 3; i++) {
    yield* runTool(navigate)({ screen: "url", url: app.url + "/flood" })
    yield* Effect.sleep("11 seconds")
    console.log("heap at flood end MB", heap())
    yield* runTool(navigate)({ screen: "url", url: app.url + "/quiet" })
    yield* Effect.sleep("3 seconds")
    yield* runTool(getState)({})
    console.log(`heap after flood ${i + 1} MB`, heap(), "rss", Math.round(process.memoryUsage().rss / 1e6))
  }
}).pipe(Effect.provide(layer))))
await app.close()
