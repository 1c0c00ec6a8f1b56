// Pictures of the active page (or one element of it), written under the artifacts directory.
import type { Effect } from "effect"
import type { InvalidInput, PageClosed, ScreenshotFailed, TargetNotFound } from "../../domain/errors.js"
import type { SessionGone } from "./actions.js"

export interface ScreenshotOptions {
  readonly name: string
  readonly fullPage: boolean
  readonly selector?: string | undefined
  /** PNG (the default) or JPEG at `quality` (0..100): a step's screenshot is a small JPEG. */
  readonly format?: "png" | "jpeg" | undefined
  readonly quality?: number | undefined
  /** How long the capture may take (default 15 s). */
  readonly timeoutMs?: number | undefined
  /** Draw the text of inputs and text areas as dots, so nothing typed (a secret) shows in the image. */
  readonly hideFieldText?: boolean | undefined
}

export interface ScreenshotFile {
  readonly path: string
  readonly width: number
  readonly height: number
  readonly base64: string
}

export interface SessionScreenshots {
  readonly screenshot: (
    options: ScreenshotOptions
  ) => Effect.Effect<ScreenshotFile, SessionGone | PageClosed | ScreenshotFailed | TargetNotFound | InvalidInput>
}
