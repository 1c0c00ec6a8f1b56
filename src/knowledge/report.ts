// A session as one HTML page a person can read: a timeline of the steps with their durations, targets,
// outcomes, screenshots and downloaded files, then the replayable recipe, with links to the session's recordings. Self-contained (inline CSS, images as data URIs,
// no script at all) and built only from redacted step records, so no secret can appear in it.
import type { Recipe, SessionMetadata, StepRecord } from "../domain/knowledge.js"
import { REDACTED } from "../domain/redaction.js"
import { describeStepTarget } from "./entry.js"
import { clipText } from "./text.js"

export interface ReportInput {
  readonly sessionId: string
  readonly metadata: SessionMetadata | undefined
  /** The session's steps, oldest first. */
  readonly steps: ReadonlyArray<StepRecord>
  readonly recipe: Recipe
  /** Screenshot path (as recorded) to the image as a data: URI; paths missing here are shown as missing. */
  readonly images: ReadonlyMap<string, string>
  /** The files the session left besides its steps (trace, HAR, videos, downloads): a link and the name under the artifacts directory. */
  readonly files?: ReadonlyArray<{ readonly name: string; readonly href: string; readonly path: string }> | undefined
  /** How a file a step saved (a download) is linked: its file: URL. Without it, the path is shown unlinked. */
  readonly hrefOf?: ((path: string) => string) | undefined
  readonly generatedAt: string
}

const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }
/** Text as HTML; long values are clipped first, so a megabyte URL costs a line, not a megabyte. */
export const escapeHtml = (value: string, limit = 2_000): string => clipText(value, limit).replace(/[&<>"']/g, (char) => ESCAPES[char]!)

/** Where a target was named in the input: shown in the target column, not again among the arguments. */
const TARGET_KEYS = new Set(["testId", "selector", "a11yRef", "within"])

/** The arguments of a step as a reader needs them: no target fields, secrets said to be secrets. */
const argumentsOf = (step: StepRecord): string => {
  const shown: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(step.tool.input)) {
    if (TARGET_KEYS.has(key) && step.tool.target !== undefined) continue
    if (key === "text" && step.tool.textRedacted === true) {
      shown[key] = "‹secret›"
      continue
    }
    shown[key] = value === REDACTED ? "‹secret›" : value
  }
  const text = JSON.stringify(shown, (_, value: unknown) => (value === REDACTED ? "‹secret›" : value))
  return text === "{}" ? "" : text
}

const formatDuration = (ms: number) => (ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`)

/** The time of day (UTC) a step started. */
const clock = (step: StepRecord) => {
  const time = Date.parse(step.timestamp) - step.timing.durationMs
  return Number.isNaN(time) ? step.timestamp : new Date(time).toISOString().slice(11, 23)
}

const CSS = `
:root { color-scheme: light; --ok: #1a7f37; --fail: #cf222e; --muted: #57606a; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
header, main, footer { max-width: 1180px; margin: 0 auto; padding: 16px 24px; }
header { background: #fff; border-bottom: 1px solid var(--line); max-width: none; }
header > div { max-width: 1132px; margin: 0 auto; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
.meta { color: var(--muted); margin: 2px 0; }
.counts span { display: inline-block; margin-right: 16px; }
.ok { color: var(--ok); } .fail { color: var(--fail); }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; word-break: break-all; }
ol.timeline { list-style: none; padding: 0; margin: 0; }
.step { background: #fff; border: 1px solid var(--line); border-left: 4px solid var(--ok); border-radius: 6px; margin: 8px 0; padding: 10px 14px; }
.step.failed { border-left-color: var(--fail); }
.step .head { display: flex; gap: 12px; flex-wrap: wrap; align-items: baseline; }
.step .index { color: var(--muted); min-width: 2.5em; }
.step .tool { font-weight: 600; }
.step .time, .step .duration { color: var(--muted); }
.step .outcome { margin-left: auto; font-weight: 600; }
.step dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0 0; }
.step dt { color: var(--muted); }
.step dd { margin: 0; }
.error { color: var(--fail); }
.shot img { display: block; max-width: 100%; max-height: 480px; border: 1px solid var(--line); border-radius: 4px; margin-top: 8px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; vertical-align: top; border: 1px solid var(--line); padding: 6px 8px; }
th { background: #f6f8fa; }
td.tool-name { white-space: nowrap; }
ul.failures li { margin: 2px 0; }
footer { color: var(--muted); font-size: 12px; }
`

/** A file the step downloaded: a link to where it was saved, its size and the start of its hash; or its name alone when it did not finish within the step. */
const downloadHtml = (download: NonNullable<StepRecord["downloads"]>[number], hrefOf: ReportInput["hrefOf"]): string => {
  const name = escapeHtml(download.name, 300)
  const facts = [
    ...(download.bytes !== undefined ? [`${download.bytes} bytes`] : []),
    ...(download.sha256 !== undefined ? [`sha256 <code>${escapeHtml(download.sha256.slice(0, 12), 12)}…</code>`] : [])
  ]
  const file =
    download.path === undefined
      ? `${name} (not saved during the step)`
      : hrefOf === undefined
        ? `${name} <code>${escapeHtml(download.path, 2_000)}</code>`
        : `<a href="${escapeHtml(hrefOf(download.path), 4_000)}">${name}</a>`
  return [file, ...facts].join(" · ")
}

const stepHtml = (step: StepRecord, index: number, start: number, images: ReadonlyMap<string, string>, hrefOf: ReportInput["hrefOf"]): string => {
  const target = describeStepTarget(step.tool.target)
  const args = argumentsOf(step)
  const stepStart = Date.parse(step.timestamp) - step.timing.durationMs
  const offset = Number.isNaN(stepStart) || Number.isNaN(start) ? undefined : stepStart - start
  const state = step.observation?.state
  const screen = state?.currentScreen !== undefined && state.currentScreen !== "unknown" ? state.currentScreen : undefined
  const shot = step.artifacts?.screenshot
  const image = shot === undefined ? undefined : images.get(shot)
  const rows: Array<string> = []
  if (target !== undefined) rows.push(`<dt>target</dt><dd class="mono">${escapeHtml(target)}</dd>`)
  if (args !== "") rows.push(`<dt>arguments</dt><dd class="mono">${escapeHtml(args)}</dd>`)
  if (!step.outcome.ok && step.outcome.error !== undefined) {
    rows.push(
      `<dt>error</dt><dd class="error"><code class="code">${escapeHtml(step.outcome.error.code, 100)}</code> ${escapeHtml(step.outcome.error.message)}</dd>`
    )
  }
  if (state !== undefined) {
    rows.push(
      `<dt>page after</dt><dd>${screen === undefined ? "" : `<b>${escapeHtml(screen, 200)}</b> · `}<span class="mono">${escapeHtml(state.currentUrl, 300)}</span>${
        state.title === "" ? "" : ` · ${escapeHtml(state.title, 200)}`
      }</dd>`
    )
  }
  for (const download of step.downloads ?? []) rows.push(`<dt>downloaded</dt><dd>${downloadHtml(download, hrefOf)}</dd>`)
  if (step.batch !== undefined) rows.push(`<dt>batch</dt><dd class="mono">${escapeHtml(step.batch.batchId, 100)} step ${step.batch.index + 1}</dd>`)
  const picture =
    image !== undefined
      ? `<div class="shot"><img src="${image}" alt="Screenshot after step ${index + 1} (${escapeHtml(step.tool.name, 100)})"></div>`
      : shot !== undefined
        ? `<p class="meta">The screenshot ${escapeHtml(shot, 300)} could not be read.</p>`
        : ""
  return `<li class="step${step.outcome.ok ? "" : " failed"}" id="step-${index + 1}">
<div class="head"><span class="index">#${index + 1}</span><span class="tool">${escapeHtml(step.tool.name, 100)}</span><span class="time">${escapeHtml(clock(step), 100)}${
    offset === undefined ? "" : ` (+${formatDuration(offset)})`
  }</span><span class="duration">took ${formatDuration(step.timing.durationMs)}</span><span class="outcome ${step.outcome.ok ? "ok" : "fail"}">${
    step.outcome.ok ? "ok" : `failed: ${escapeHtml(step.outcome.error?.code ?? "error", 100)}`
  }</span></div>
<dl>${rows.join("")}</dl>${picture}
</li>`
}

/** What a session's file is, by its name (recording.ts names them). */
const fileLabel = (name: string): string => {
  const base = name.slice(name.lastIndexOf("/", name.length - 2) + 1)
  if (base === "trace.zip") return "Playwright trace"
  if (base.endsWith(".har")) return "Network (HAR)"
  const video = /^video-tab(\d+)\.webm$/.exec(base)
  if (video !== null) return `Video of tab ${video[1]}`
  return base
}

const filesHtml = (files: NonNullable<ReportInput["files"]>): string =>
  files.length === 0
    ? ""
    : `<h2>Recordings</h2><ul class="files">${files
        .map(
          (file) =>
            `<li><a href="${escapeHtml(file.href, 4_000)}">${escapeHtml(fileLabel(file.name), 200)}</a> <code>${escapeHtml(file.name, 500)}</code>${
              file.name.endsWith("trace.zip") ? ` · <code>npx playwright show-trace ${escapeHtml(file.path, 2_000)}</code>` : ""
            }</li>`
        )
        .join("")}</ul>`

const recipeHtml = (recipe: Recipe): string => {
  const steps =
    recipe.steps.length === 0
      ? `<p class="meta">No step of this session can be replayed.</p>`
      : `<table><thead><tr><th>#</th><th>tool</th><th>arguments</th><th>what it does</th></tr></thead><tbody>${recipe.steps
          .map(
            (step, index) =>
              `<tr><td>${index + 1}</td><td class="mono tool-name">${escapeHtml(step.tool, 100)}</td><td class="mono">${escapeHtml(JSON.stringify(step.args))}</td><td>${escapeHtml(step.notes)}</td></tr>`
          )
          .join("")}</tbody></table>`
  const placeholders =
    recipe.placeholders.length === 0
      ? ""
      : `<p>Fill in before replaying: ${recipe.placeholders
          .map((placeholder) => `<code>{{${escapeHtml(placeholder.name, 100)}}}</code> (${escapeHtml(placeholder.target, 300)})`)
          .join(", ")}.</p>`
  const skipped =
    recipe.skipped.length === 0 ? "" : `<h3>Left out</h3><ul>${recipe.skipped.map((reason) => `<li>${escapeHtml(reason, 500)}</li>`).join("")}</ul>`
  return `${steps}${placeholders}${skipped}`
}

/** The report page. */
export const renderReport = (input: ReportInput): string => {
  const { steps, metadata } = input
  const failed = steps.flatMap((step, index) => (step.outcome.ok ? [] : [{ step, index }]))
  const first = steps[0]
  const last = steps[steps.length - 1]
  const start = first === undefined ? NaN : Date.parse(first.timestamp) - first.timing.durationMs
  const end = last === undefined ? NaN : Date.parse(last.timestamp)
  const busy = steps.reduce((sum, step) => sum + step.timing.durationMs, 0)
  const title = metadata?.goal ?? `Session ${input.sessionId}`
  const tags = [...(metadata?.flowTags ?? []).map((tag) => `flow:${tag}`), ...(metadata?.tags ?? [])]
  const failures =
    failed.length === 0
      ? ""
      : `<h2>Failures</h2><ul class="failures">${failed
          .map(({ step, index }) => {
            const target = describeStepTarget(step.tool.target)
            return `<li><a href="#step-${index + 1}">#${index + 1} ${escapeHtml(step.tool.name, 100)}${
              target === undefined ? "" : ` ${escapeHtml(target, 300)}`
            }</a>: <code>${escapeHtml(step.outcome.error?.code ?? "error", 100)}</code></li>`
          })
          .join("")}</ul>`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title, 200)} · browser-workflow-mcp report</title>
<style>${CSS}</style>
</head>
<body>
<header><div>
<h1>${escapeHtml(title, 300)}</h1>
<p class="meta">Session <code>${escapeHtml(input.sessionId, 200)}</code>${metadata === undefined ? "" : ` · started ${escapeHtml(metadata.createdAt, 100)}`}${
    metadata?.launch.appUrl === undefined ? "" : ` · app <span class="mono">${escapeHtml(metadata.launch.appUrl, 300)}</span>`
  }${tags.length === 0 ? "" : ` · ${tags.map((tag) => escapeHtml(tag, 100)).join(", ")}`}</p>
<p class="counts"><span>${steps.length} steps</span><span class="ok">${steps.length - failed.length} ok</span><span class="${failed.length > 0 ? "fail" : "meta"}">${
    failed.length
  } failed</span>${Number.isNaN(end - start) ? "" : `<span>${formatDuration(end - start)} from first to last</span>`}<span>${formatDuration(busy)} in tool calls</span></p>
</div></header>
<main>
${filesHtml(input.files ?? [])}
${failures}
<h2>Timeline</h2>
<ol class="timeline">
${steps.map((step, index) => stepHtml(step, index, start, input.images, input.hrefOf)).join("\n")}
</ol>
<h2>Recipe</h2>
<p class="meta">The successful actions with durable targets, as <code>mm_knowledge {export}</code> exports them.</p>
${recipeHtml(input.recipe)}
</main>
<footer>Written by browser-workflow-mcp at ${escapeHtml(input.generatedAt, 100)} from the session's step records; typed secrets are never stored, and screenshots show field text as dots.</footer>
</body>
</html>
`
}
