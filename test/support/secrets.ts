// What the secrets tests (test/policy/secrets, secret-urls, random-secrets) share: the built server over
// stdio with a fresh artifacts folder, debug logs and a --secrets file, and the check that nothing the
// session left (answers, stderr, the text files it wrote) shows a value in any form its test looks for.
import * as fs from "node:fs"
import * as path from "node:path"
import { expect } from "vitest"
import { tempDir } from "./browser.js"
import { filesUnder, startStdioServer, type StdioServer } from "./stdio-server.js"

export interface SecretsServer extends StdioServer {
  /** Where the session's records, reports and recordings go (--artifacts-dir). */
  readonly artifacts: string
}

/**
 * The built server named `name` on a fresh artifacts folder with --log-level debug, `args`, and, given
 * `dotenv`, a --secrets file holding that text (mode 0600).
 */
export const startSecretsServer = async (name: string, args: ReadonlyArray<string>, dotenv?: string): Promise<SecretsServer> => {
  const dir = tempDir(`bwm-${name}-`)
  const artifacts = path.join(dir, "artifacts")
  const secrets: Array<string> = []
  if (dotenv !== undefined) {
    const secretsFile = path.join(dir, "secrets.env")
    fs.writeFileSync(secretsFile, dotenv, { mode: 0o600 })
    secrets.push("--secrets", secretsFile)
  }
  const server = await startStdioServer(name, ["--artifacts-dir", artifacts, ...secrets, "--log-level", "debug", ...args])
  return { ...server, artifacts }
}

/** The beginnings of at least `min` characters of each form that the text holds. */
export const beginningsIn = (text: string, forms: ReadonlyArray<string>, min: number): ReadonlyArray<string> =>
  forms.flatMap((form) => Array.from({ length: form.length - min + 1 }, (_, at) => form.slice(0, at + min)).filter((prefix) => text.includes(prefix)))

/** The files the session wrote under `artifacts` that are text (not a screenshot or a video). */
export const textArtifacts = (artifacts: string): Array<string> => filesUnder(artifacts).filter((file) => !/\.(png|jpg|webm)$/.test(file))

/** No answer, no stderr and no file shows what `leaked` finds (each answer as the test reads it). */
export const expectNoLeak = (
  leaked: (text: string) => ReadonlyArray<string>,
  left: { readonly answers: ReadonlyArray<string>; readonly stderr: string; readonly files: ReadonlyArray<string> }
) => {
  for (const answer of left.answers) expect(leaked(answer), answer.slice(0, 2000)).toEqual([])
  expect(leaked(left.stderr)).toEqual([])
  for (const file of left.files) expect(leaked(fs.readFileSync(file, "utf8")), file).toEqual([])
}
