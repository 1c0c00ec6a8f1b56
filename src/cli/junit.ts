// A fan-out replay's runs as a JUnit XML report, the format CI systems read as is (GitLab, Jenkins, GitHub
// test reporters, Azure): one test suite, one test case per run, a failed run's step as its <failure>.
import type { ReplayRun } from "../domain/errors.js"

/** Text as XML character data or an attribute value: the five specials escaped, characters XML forbids dropped. */
export const xmlEscape = (text: string): string =>
  text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")

const seconds = (ms: number) => (ms / 1000).toFixed(3)

export interface JunitReport {
  /** The suite's name, e.g. "replay checkout". */
  readonly suite: string
  /** The class name of every case (dots group them in most viewers). */
  readonly classname: string
  /** A case's name: its run's index and where it came from (e.g. its line in the runs file). */
  readonly caseName: (index: number) => string
  readonly runs: ReadonlyArray<ReplayRun>
  readonly ms: number
  readonly timestamp: string
}

/** The report as an XML document. */
export const junitXml = (report: JunitReport): string => {
  const failures = report.runs.filter((run) => run.failed !== undefined).length
  const counts = `tests="${report.runs.length}" failures="${failures}" errors="0" skipped="0" time="${seconds(report.ms)}"`
  const cases = report.runs.map((run, index) => {
    const open = `    <testcase classname="${xmlEscape(report.classname)}" name="${xmlEscape(report.caseName(index))}" time="${seconds(run.ms)}">`
    const session = run.session === undefined ? [] : [`      <system-out>session ${xmlEscape(run.session)}</system-out>`]
    if (run.failed === undefined) return [open, ...session, `    </testcase>`].join("\n")
    const { failed } = run
    const step = failed.index === undefined ? "" : `step ${failed.index}${failed.tool !== undefined ? ` ${failed.tool}` : ""}: `
    return [
      open,
      `      <failure type="${xmlEscape(failed.code)}" message="${xmlEscape(`${step}${failed.code}`)}">${xmlEscape(`${step}${failed.code}\n${failed.message}`)}</failure>`,
      ...session,
      `    </testcase>`
    ].join("\n")
  })
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="browser-workflow-mcp" ${counts}>`,
    `  <testsuite name="${xmlEscape(report.suite)}" ${counts} timestamp="${xmlEscape(report.timestamp)}">`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    ``
  ].join("\n")
}
