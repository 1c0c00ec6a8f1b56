#!/usr/bin/env node
// Bundles the code that runs inside the page (src/adapters/playwright/page/, ordinary TypeScript modules)
// into self-contained expressions, one per value the Node side sends into the page, as Playwright bundles
// its injected scripts. Writes src/adapters/playwright/page-bundle.js (generated, not committed: every
// entry point runs this first: build, vitest's global setup) and its declaration page-bundle.d.ts
// (committed, so that typecheck and the editor need no generation; it changes only with ENTRIES).
// `--copy <dir>` copies both into <dir>/adapters/playwright (the build's dist/src, which tsc does not fill).
import { build } from "esbuild"
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = new URL("../src/adapters/playwright/", import.meta.url)
const pageDir = fileURLToPath(new URL("page/", root))

/**
 * Each value the Node side sends, as the source of a module exporting it as `value`, importing from the
 * module that defines it (so that only what it uses is bundled). An object bundles several functions
 * that are installed together, so the code they share is sent once.
 */
const pick = (name, module) => `export { ${name} as value } from "./${module}.ts"`
export const ENTRIES = {
  /** The walk installed once per document (observer.ts, and describeTarget's roles and names). */
  walk: `import { observePage } from "./observe.ts"; import { settlePage } from "./settle.ts"; export const value = { observe: observePage, settle: settlePage }`,
  observe: pick("observePage", "observe"),
  settle: pick("settlePage", "settle"),
  readState: pick("readPageState", "state"),
  checkRef: pick("checkRef", "check-ref"),
  refEngine: pick("refSelectorEngine", "ref-engine"),
  describe: pick("describeTarget", "durable"),
  /** The matches of an ambiguous target, with refs (session/candidates.ts). */
  candidates: pick("listCandidates", "candidates"),
  /** The functions an action runs (and the readiness watch's look at its target), installed once per document. */
  actions: `import { prepareAction } from "./actions.ts"; import { finishGuard } from "./guard.ts"; import { readPageState } from "./state.ts"; import { keptTypedState, keptTypingChanges, peekTypedState } from "./typing.ts"; import { lookAtTarget } from "./look.ts"; export const value = { prepare: prepareAction, look: lookAtTarget, finish: finishGuard, read: readPageState, typingChanges: keptTypingChanges, typedState: keptTypedState, peekTyped: peekTypedState }`,
  verifyMeasured: pick("verifyMeasured", "actions"),
  measuredElement: pick("measuredElement", "actions"),
  sameDocuments: pick("sameDocuments", "guard"),
  isSensitiveField: pick("isSensitiveField", "fields"),
  /** Whether a target can take an action, why not, or what to act through (session/readiness.ts). */
  readiness: pick("diagnose", "readiness"),
  watchEffect: pick("watchEffect", "readiness"),
  effectSeen: pick("effectSeen", "readiness"),
  checkedState: pick("checkedStateOf", "readiness"),
  /** The control inside a header or a cell that a click on it goes through, and whether that had an effect (session/inner-control.ts). */
  innerControl: pick("innerControlOf", "inner-control"),
  watchInnerEffect: pick("watchInnerEffect", "inner-control"),
  innerEffectSeen: pick("innerEffectSeen", "inner-control"),
  stopInnerEffect: pick("stopInnerEffect", "inner-control"),
  pageQuiet: pick("pageQuietMs", "readiness"),
  /** How mm_type puts text in, whether it arrived, the app's reaction (session/actions.ts). */
  typingKind: pick("typingKind", "typing"),
  watchTyping: pick("watchTyping", "typing"),
  typingChanges: pick("typingChanges", "typing"),
  typedState: pick("typedState", "typing"),
  readText: pick("readText", "fields"),
  readShownText: pick("readShownText", "fields"),
  /** The page's reaction to an action that is read back (session/reaction.ts). */
  watchReaction: pick("watchReaction", "reaction"),
  reactionNow: pick("reactionNow", "reaction"),
  stopReaction: pick("stopReaction", "reaction"),
  /** Whether a drag's drop changed the page (session/drop-effect.ts). */
  documentFingerprint: pick("documentFingerprint", "fingerprint"),
  drawsOnCanvas: pick("drawsOnCanvas", "fingerprint"),
  /** select_option on ARIA listboxes and comboboxes (session/choose.ts). */
  choiceWidget: pick("choiceWidget", "choose"),
  choiceOption: pick("choiceOption", "choose"),
  choiceSeen: pick("choiceSeen", "choose"),
  /** The direct type's watch of the page's reaction, installed once per document in the page's main world (main-world.ts). */
  /** The count of short timers a person's input scheduled, installed once per document in the page's main world (observer/quiet.ts). */
  timers: `import { installTimers, pendingTimers } from "./timers.ts"; export const value = { install: installTimers, pending: pendingTimers }`,
  fieldReaction: `import { fieldReactionNow, fieldTypedState, firstFieldLook, startFieldReaction, stopFieldReaction } from "./typing.ts"; export const value = { start: startFieldReaction, stop: stopFieldReaction, look: firstFieldLook, now: fieldReactionNow, typed: fieldTypedState }`
}

const EXPORT = /export\s*\{\s*([\w$]+)\s+as\s+value\s*\};?\s*$/

/** One entry as an expression: an arrow function called at once, answering the entry's value. */
const bundleEntry = async (name, contents) => {
  const result = await build({
    stdin: { contents, resolveDir: pageDir, loader: "ts", sourcefile: `<entry ${name}>` },
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    // Chromium runs it: no lowering of modern syntax.
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "warning"
  })
  const code = result.outputFiles[0].text.trim()
  const exported = EXPORT.exec(code)
  if (exported === null) throw new Error(`bundle-page: entry ${name} does not end with its export`)
  return `(()=>{${code.slice(0, exported.index)}return ${exported[1]}})()`
}

export const generatePageBundle = async () => {
  const sources = {}
  for (const [name, contents] of Object.entries(ENTRIES)) sources[name] = await bundleEntry(name, contents)
  const header = "// Generated by scripts/bundle-page.mjs from src/adapters/playwright/page/: do not edit.\n"
  const js = `${header}export const PAGE = ${JSON.stringify(sources, null, 1)}\n`
  const dts =
    `${header}// The source of each value the page code exposes, as an expression the Node side sends into the page.\n` +
    `export declare const PAGE: {\n${Object.keys(ENTRIES).map((name) => `  readonly ${name}: string\n`).join("")}}\n`
  writeFileSync(new URL("page-bundle.js", root), js)
  const dtsUrl = new URL("page-bundle.d.ts", root)
  let current = ""
  try {
    current = readFileSync(dtsUrl, "utf8")
  } catch {
    current = ""
  }
  if (current !== dts) writeFileSync(dtsUrl, dts)
}

const copyInto = (dir) => {
  const target = new URL(`${pathToFileURL(dir).href.replace(/\/?$/, "/")}adapters/playwright/`)
  mkdirSync(target, { recursive: true })
  for (const file of ["page-bundle.js", "page-bundle.d.ts"]) copyFileSync(new URL(file, root), new URL(file, target))
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const copy = process.argv.indexOf("--copy")
  if (copy !== -1) copyInto(process.argv[copy + 1])
  else await generatePageBundle()
}
