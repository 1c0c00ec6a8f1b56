// Screenshots to files under the artifacts directory, optionally inline.
import { Effect, Schema } from "effect"
import { defineTool, Evident, Unlisted, type Attachment } from "../runtime/tool.js"
import { Session } from "../services/Session.js"

export const ScreenshotResult = Schema.Struct({
  path: Schema.String.annotations({ description: "Absolute path of the PNG file." }),
  width: Schema.Number,
  height: Schema.Number,
  base64: Schema.optional(Schema.String).annotations({ description: "The PNG as base64, when asked for." })
})

/** Moves a screenshot's bytes into an MCP image block when the caller asked for an image rather than base64 text. */
export const imageAttachment = (
  wantImage: boolean,
  wantBase64: boolean,
  shot: { readonly base64?: string | undefined }
): { readonly keepBase64: boolean; readonly attachments: ReadonlyArray<Attachment> } => ({
  keepBase64: wantBase64,
  attachments: wantImage && shot.base64 !== undefined ? [{ type: "image", data: shot.base64, mimeType: "image/png" }] : []
})

export const screenshot = defineTool({
  name: "screenshot",
  title: "Take a screenshot",
  description: "Save a PNG of the viewport or an element under the artifacts dir.",
  input: Schema.Struct({
    name: Schema.String.pipe(
      Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
        message: () => "a plain file name: letters, digits, '.', '_' and '-', starting with a letter or digit (at most 100)"
      })
    ).annotations({ description: "File name.", [Evident]: true }),
    fullPage: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Whole page, not viewport.",
      [Evident]: true
    }),
    selector: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
      description: "Element's CSS selector.",
      [Evident]: true
    }),
    // Base64 text costs the model far more than an image block: accepted for compatibility, not listed.
    includeBase64: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Add the PNG as base64 text.",
      [Unlisted]: true
    }),
    includeImage: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Attach as an image."
    })
  }),
  output: ScreenshotResult,
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  concurrencySafe: true,
  group: "page",
  requiresSession: true,
  // Taken through DevTools while the page is paused.
  whilePaused: "listed",
  stepKinds: ["discovery"],
  observation: "none",
  deadlineMs: () => 30_000,
  record: (input, result) => ({
    input: { name: input.name, fullPage: input.fullPage, ...(input.selector !== undefined ? { selector: input.selector } : {}) },
    screenshot: result._tag === "Some" ? result.value.path : undefined
  }),
  attachments: (input, result) => {
    const { keepBase64, attachments } = imageAttachment(input.includeImage, input.includeBase64, result)
    const { base64, ...rest } = result
    return { result: keepBase64 && base64 !== undefined ? { ...rest, base64 } : rest, attachments }
  },
  run: Effect.fn("tool.screenshot")(function* (input) {
    const session = yield* Session
    const shot = yield* session.screenshot({ name: input.name, fullPage: input.fullPage, selector: input.selector })
    return input.includeBase64 || input.includeImage
      ? { path: shot.path, width: shot.width, height: shot.height, base64: shot.base64 }
      : { path: shot.path, width: shot.width, height: shot.height }
  })
})
