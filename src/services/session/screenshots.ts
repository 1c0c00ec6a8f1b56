// Pictures of the active page (or one element of it), written under the artifacts directory.
import type { Effect } from "effect"
import type { PageClosed, ScreenshotFailed, TargetNotFound } from "../../domain/errors.js"
import type { SessionGone } from "./actions.js"

export interface ScreenshotOptions {
  readonly name: string
  readonly fullPage: boolean
  readonly selector?: string | undefined
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
  ) => Effect.Effect<ScreenshotFile, SessionGone | PageClosed | ScreenshotFailed | TargetNotFound>
}
