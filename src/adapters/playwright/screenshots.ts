// Session screenshots over Playwright: the active page or one element, written under the artifacts
// directory with a sanitized name.
import * as path from "node:path"
import { Effect } from "effect"
import type { Locator, Page } from "playwright"
import { PageClosed, ScreenshotFailed, TargetNotFound } from "../../domain/errors.js"
import type { ScreenshotOptions, SessionScreenshots } from "../../services/Session.js"
import { writeFileAtomic } from "../files.js"
import { BrowserState, firstLine, isPlaywrightTimeout } from "./browser.js"

/** Screenshot file names: letters, digits, dot, dash and underscore only; never a path. */
export const sanitizeFileName = (name: string): string => {
  const cleaned = name
    .replace(/\.png$/i, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, 100)
  return cleaned === "" ? "screenshot" : cleaned
}

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) })

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const settings = browser.settings

  const screenshot = (options: ScreenshotOptions) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      const jpeg = options.format === "jpeg"
      const file = path.resolve(settings.artifactsDir, "screenshots", `${sanitizeFileName(options.name)}.${jpeg ? "jpg" : "png"}`)
      const shotOptions = {
        timeout: options.timeoutMs ?? 15_000,
        ...(jpeg ? { type: "jpeg", quality: options.quality ?? 50 } : {}),
        ...(options.hideFieldText ? { style: "input, textarea { -webkit-text-security: disc !important; }" } : {})
      }
      const image = yield* Effect.tryPromise({
        try: (signal) =>
          options.selector === undefined
            ? page.screenshot({ fullPage: options.fullPage, ...shotOptions, signal } as Parameters<Page["screenshot"]>[0])
            : page.locator(options.selector).screenshot({ ...shotOptions, signal } as Parameters<Locator["screenshot"]>[0]),
        catch: (error) =>
          page.isClosed()
            ? new PageClosed({ detail: "the page closed before the screenshot" })
            : options.selector !== undefined && isPlaywrightTimeout(error)
              ? new TargetNotFound({ target: `selector:${options.selector}`, detail: `No visible element matches selector:${options.selector}.` })
              : new ScreenshotFailed({ detail: firstLine(error) })
      })
      yield* Effect.tryPromise({
        try: () => writeFileAtomic(file, image),
        catch: (error) => new ScreenshotFailed({ detail: `cannot write ${file}: ${firstLine(error)}` })
      })
      const size = jpeg ? (page.viewportSize() ?? { width: 0, height: 0 }) : pngSize(image)
      return { path: file, width: size.width, height: size.height, base64: image.toString("base64") }
    })

  const screenshots: SessionScreenshots = {
    screenshot: (options) => browser.refineClosed(screenshot(options))
  }
  return screenshots
})
