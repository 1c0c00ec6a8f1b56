// Helpers of the reach tests: tools run against a live layer per settings, pages that show what the
// browser tells them, and remote browsers (Chromium over CDP, a Playwright browser server) on 127.0.0.1.
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Layer, type Scope } from "effect"
import { chromium, type BrowserServer } from "playwright"
import { EXECUTABLE_CANDIDATES, LOOPBACK_ARGS } from "../../src/adapters/playwright/lifecycle/launch.js"
import type { Settings } from "../../src/domain/config.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool, type ToolResponse } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition, ToolServices } from "../../src/runtime/tool.js"
import { getText } from "../../src/tools/interaction.js"
import { html, liveLayer, tempDir } from "../support/browser.js"

/** The tool's envelope; the built-in tools need nothing beyond the tool services. */
export const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}): Effect.Effect<Envelope<any>, never, ToolServices> =>
  Effect.map(runTool(tool)(args) as Effect.Effect<ToolResponse, never, ToolServices>, (response) => response.envelope as Envelope<any>)

/** Runs the program on real Chromium with these settings; the browser, the layer and the program's resources end with it. */
export const withLive = <A, E>(settings: Settings, program: Effect.Effect<A, E, ToolServices | Scope.Scope>): Effect.Effect<A, E> =>
  Effect.scoped(Effect.flatMap(Layer.build(liveLayer(settings)), (context) => Effect.provide(program, context)))

/** The text of the element with this test id, from mm_get_text. */
export const textOf = (testId: string) =>
  Effect.map(call(getText, { testId }), (envelope) => {
    if (!envelope.ok) throw new Error(`get_text ${testId}: ${JSON.stringify(envelope.error)}`)
    return envelope.result.text as string
  })

/**
 * A page that writes what the browser tells it (viewport, user agent, touch, locale, zone) as JSON into
 * #env; a mobile page, so that a mobile device lays it out at the device's width, not 980 px.
 */
export const envPage = html(
  "Environment",
  `<meta name="viewport" content="width=device-width, initial-scale=1">
   <pre data-testid="env"></pre>
   <script>
     document.querySelector('[data-testid=env]').textContent = JSON.stringify({
       width: innerWidth,
       height: innerHeight,
       userAgent: navigator.userAgent,
       maxTouchPoints: navigator.maxTouchPoints,
       touchEvents: 'ontouchstart' in window,
       devicePixelRatio: devicePixelRatio,
       coarsePointer: matchMedia('(pointer: coarse)').matches,
       language: navigator.language,
       timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
       dateText: new Date(Date.UTC(2024, 0, 15, 12)).toLocaleString(undefined, { timeZoneName: 'short' })
     })
   </script>`
)

/** A page that remembers: sets a cookie and a localStorage entry when asked, and shows both. */
export const memoryPages = {
  "/remember": html(
    "Remember",
    `<p data-testid="done"></p>
     <script>
       document.cookie = 'session=s3cret-cookie; max-age=3600; path=/'
       localStorage.setItem('theme', 'dark')
       document.querySelector('[data-testid=done]').textContent = 'remembered'
     </script>`
  ),
  "/recall": html(
    "Recall",
    `<p data-testid="cookie"></p><p data-testid="theme"></p>
     <script>
       document.querySelector('[data-testid=cookie]').textContent = 'cookie=' + (document.cookie || 'none')
       document.querySelector('[data-testid=theme]').textContent = 'theme=' + localStorage.getItem('theme')
     </script>`
  )
}

export const executablePath = () => {
  const found = EXECUTABLE_CANDIDATES.find((candidate) => fs.existsSync(candidate))
  if (found === undefined) throw new Error("no Chromium found; run npm run ensure-browser")
  return found
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export interface CdpBrowser {
  /** http://127.0.0.1:PORT, as a user passes it to --cdp-endpoint. */
  readonly endpoint: string
  readonly pid: number
  /** Kills the browser and its helper processes (SIGKILL) and waits for it to be gone. */
  readonly kill: () => Promise<void>
}

/**
 * Chromium listening for CDP on 127.0.0.1 (port 0: the browser picks one and writes it to
 * DevToolsActivePort in its profile), headless, with the loopback flags; killed when the scope ends.
 */
export const cdpBrowser = (extraArgs: ReadonlyArray<string> = []) =>
  Effect.acquireRelease(
    Effect.promise(async (): Promise<CdpBrowser> => {
      const profile = tempDir("bwm-cdp-profile-")
      const child = spawn(
        executablePath(),
        [
          "--headless",
          "--remote-debugging-port=0",
          "--remote-debugging-address=127.0.0.1",
          `--user-data-dir=${profile}`,
          ...LOOPBACK_ARGS,
          ...extraArgs,
          "about:blank"
        ],
        // A process group of its own: the kill takes its renderers and helpers with it.
        { stdio: "ignore", detached: true }
      )
      const portFile = path.join(profile, "DevToolsActivePort")
      const deadline = Date.now() + 30_000
      while (!fs.existsSync(portFile) || fs.readFileSync(portFile, "utf8").split("\n")[0] === "") {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error("Chromium did not open its DevTools port")
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const port = fs.readFileSync(portFile, "utf8").split("\n")[0]!.trim()
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      return {
        endpoint: `http://127.0.0.1:${port}`,
        pid: child.pid!,
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            try {
              process.kill(-child.pid!, "SIGKILL")
            } catch {
              child.kill("SIGKILL")
            }
          }
          await exited
          await fs.promises.rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
        }
      }
    }),
    (browser) => Effect.promise(() => browser.kill())
  )

/** A Playwright browser server on 127.0.0.1 (Playwright's launchServer) with the loopback flags; closed with the scope. */
export const wsServer = (options: { readonly port?: number; readonly wsPath?: string } = {}) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      chromium.launchServer({
        executablePath: executablePath(),
        headless: true,
        args: [...LOOPBACK_ARGS],
        host: "127.0.0.1",
        port: options.port ?? 0,
        ...(options.wsPath !== undefined ? { wsPath: options.wsPath } : {})
      })
    ),
    (server: BrowserServer) => Effect.promise(() => server.close().catch(() => undefined))
  )
