// Session file uploads over Playwright: into a file input, or through the file chooser a click opens (or
// one already open), each read back from the input's change event.
import * as path from "node:path"
import { Effect, Ref } from "effect"
import type { ElementHandle, FileChooser, Locator } from "playwright"
import { ActionFailed, InvalidInput } from "../../../domain/errors.js"
import { describeTarget, type Target } from "../../../domain/target.js"
import { checkUploadPaths, type UploadPolicy } from "../../upload-roots.js"
import type { BrowserStateService } from "../lifecycle/browser.js"
import { firstLine } from "../calls.js"
import type { LiveSession } from "../lifecycle/live-session.js"
import { noticesWithout } from "../lifecycle/session-state.js"
import type { Targets } from "./targets.js"


/** Runs in the page on a file input: remembers the files of the next change event, so a page that clears the input at once still shows what it received. */
const watchFiles = (element: Element) => {
  const key = Symbol.for("browser-workflow-mcp/uploaded")
  const holder = element as any
  holder[key] = undefined
  element.addEventListener(
    "change",
    () => {
      holder[key] = Array.from((element as HTMLInputElement).files ?? [], (file) => file.name)
    },
    { capture: true, once: true }
  )
}

/** The files the input received (at its change event, else now). */
const filesOf = (element: Element): Array<string> => {
  const received = (element as any)[Symbol.for("browser-workflow-mcp/uploaded")] as Array<string> | undefined
  return received ?? Array.from((element as HTMLInputElement).files ?? [], (file) => file.name)
}

/** Sets the files on an input and reads back what its change event carried. */
const setOnInput = async (element: Locator | ElementHandle, files: ReadonlyArray<string>, opts: { timeout: number }) => {
  const input = element as Locator
  await input.evaluate(watchFiles)
  await input.setInputFiles([...files], opts)
  return input.evaluate(filesOf)
}

const uploadFailed = (target: string, files: ReadonlyArray<string>, received: ReadonlyArray<string>) =>
  new ActionFailed({
    action: "upload_file",
    target,
    detail: `the input holds ${received.length} file(s) afterwards (${received.slice(0, 5).join(", ") || "none"}), not the ${files.length} given`
  })

const verified = (target: string, files: ReadonlyArray<string>, received: ReadonlyArray<string>) => {
  const names = files.map((file) => path.basename(file))
  return received.length === names.length && names.every((name) => received.includes(name))
    ? Effect.succeed(received)
    : Effect.fail(uploadFailed(target, files, received))
}

const takeChooser = (live: LiveSession) =>
  Effect.zipLeft(
    Ref.getAndSet(live.fileChooser, undefined),
    Ref.update(live.notices, (notices) => noticesWithout(notices, (text) => text.startsWith("A file chooser opened")))
  )

const toChooser = (chooser: FileChooser, files: ReadonlyArray<string>, timeoutMs: number) =>
  Effect.tryPromise({
    try: () => setOnInput(chooser.element(), files, { timeout: timeoutMs }),
    catch: (cause) => new ActionFailed({ action: "upload_file", target: "the open file chooser", detail: firstLine(cause) })
  }).pipe(Effect.flatMap((received) => verified("the open file chooser", files, received)))

/** Files for a file input: the chooser already open, the page's only file input, or the target (an input, or what opens a chooser). */
export const uploadFiles = (
  browser: BrowserStateService,
  targeting: Targets,
  uploadPolicy: UploadPolicy,
  target: Target | undefined,
  paths: ReadonlyArray<string>,
  options: { readonly timeoutMs: number }
) =>
  Effect.gen(function* () {
    const checked = yield* Effect.promise(() => checkUploadPaths(paths, uploadPolicy))
    if ("problem" in checked) return yield* new InvalidInput({ field: "paths", problem: checked.problem })
    const files = checked.files
    const { live, page } = yield* browser.activePage
    if (target === undefined) {
      const waiting = yield* Ref.get(live.fileChooser)
      if (waiting !== undefined && waiting.page() === page) {
        yield* takeChooser(live)
        if (files.length > 1 && !waiting.isMultiple()) {
          return yield* new InvalidInput({ field: "paths", problem: "the open file chooser takes one file" })
        }
        return { via: "chooser" as const, files: yield* toChooser(waiting, files, options.timeoutMs) }
      }
      const inputs = page.locator('input[type="file" i]')
      const count = yield* targeting.countSafely(inputs)
      if (count !== 1) {
        return yield* new InvalidInput({
          field: "a11yRef",
          problem:
            count <= 0
              ? "no file chooser is open and the page has no file input: give the input or the button that opens the chooser (a11yRef, testId or selector)"
              : `no file chooser is open and the page has ${count} file inputs: say which one (a11yRef, testId or selector)`
        })
      }
      const received = yield* Effect.tryPromise({
        try: () => setOnInput(inputs, files, { timeout: options.timeoutMs }),
        catch: (cause) => new ActionFailed({ action: "upload_file", target: "the file input", detail: firstLine(cause) })
      })
      return { via: "input" as const, files: yield* verified("the file input", files, received) }
    }
    const described = describeTarget(target)
    const { value } = yield* targeting.act(
      "upload_file",
      target,
      options.timeoutMs,
      async (locator, opts) => {
        const isInput = await locator.evaluate(
          (element: Element) => element instanceof HTMLInputElement && element.type.toLowerCase() === "file",
          undefined,
          opts
        )
        if (isInput) return { via: "input" as const, received: await setOnInput(locator, files, opts) }
        // Anything else opens a file chooser when clicked (a button, a label, a drop zone).
        const [chooser] = await Promise.all([page.waitForEvent("filechooser", { timeout: opts.timeout }), locator.click(opts)])
        if (files.length > 1 && !chooser.isMultiple()) throw new Error("the file chooser it opened takes one file")
        return { via: "chooser" as const, received: await setOnInput(chooser.element(), files, opts) }
      },
      page
    )
    if (value.via === "chooser") yield* takeChooser(live)
    return { via: value.via, files: yield* verified(described, files, value.received) }
  })
