// Session screenshots over Playwright: the active page or one element, written under the artifacts
// directory under a plain file name that never replaces another session's file (named-files.ts).
import * as path from "node:path"
import { Effect } from "effect"
import type { Locator, Page } from "playwright"
import { InvalidInput, PageClosed, ScreenshotFailed, TargetNotFound } from "../../../domain/errors.js"
import type { ScreenshotOptions, SessionScreenshots } from "../../../services/Session.js"
import { BrowserState } from "../lifecycle/browser.js"
import { writeNamedFile } from "./named-files.js"
import { firstLine, isPlaywrightTimeout } from "../calls.js"

/**
 * A screenshot's name: a plain file name, never a path, so that two different names are two different
 * files (a sanitizing map made `..\\..\\x`, `....//....//x` and `~/x` all `x.png`). ".png" is optional.
 */
export const SCREENSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/** The file a screenshot name maps to under `dir`, or undefined for a name that is not a plain file name. */
export const screenshotFile = (dir: string, name: string, extension: "png" | "jpg"): string | undefined => {
  const base = name.replace(/\.png$/i, "")
  const file = path.join(dir, `${base}.${extension}`)
  return SCREENSHOT_NAME.test(base) && path.dirname(file) === dir ? file : undefined
}

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) })

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const settings = browser.settings

  const screenshot = (options: ScreenshotOptions) =>
    Effect.gen(function* () {
      const { live, page } = yield* browser.activePage
      const jpeg = options.format === "jpeg"
      const file = screenshotFile(path.resolve(settings.artifactsDir, "screenshots"), options.name, jpeg ? "jpg" : "png")
      // Fail closed even if a caller skipped the tool's schema.
      if (file === undefined) {
        return yield* new InvalidInput({ field: "name", problem: "must be a plain file name: letters, digits, '.', '_' and '-', starting with a letter or digit." })
      }
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
      const placed = yield* writeNamedFile(
        live.namedFiles,
        live.context,
        file,
        image,
        settings.artifactsDir,
        (error) => new ScreenshotFailed({ detail: `cannot write ${file}: ${firstLine(error)}` })
      )
      const size = jpeg ? (page.viewportSize() ?? { width: 0, height: 0 }) : pngSize(image)
      return { path: placed, width: size.width, height: size.height, base64: image.toString("base64") }
    })

  const screenshots: SessionScreenshots = {
    screenshot: (options) => browser.refineClosed(screenshot(options))
  }
  return screenshots
})
