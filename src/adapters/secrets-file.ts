// Reads the --secrets dotenv file once, at start. Owner-only permissions are not required but a
// file others can read draws a warning at start (the CLI prints it).
import * as fs from "node:fs"
import { parseDotenv } from "../domain/secrets.js"

export type SecretsFile =
  | { readonly ok: true; readonly entries: ReadonlyMap<string, string>; readonly worldReadable: boolean }
  | { readonly ok: false; readonly problem: string }

/** The secrets of a file; a problem names the file and the line, never a value. */
export const readSecretsFile = (file: string): SecretsFile => {
  let text: string
  let mode: number
  try {
    text = fs.readFileSync(file, "utf8")
    mode = fs.statSync(file).mode
  } catch {
    return { ok: false, problem: `cannot read ${file}` }
  }
  const parsed = parseDotenv(text)
  if (!parsed.ok) return { ok: false, problem: `${file} line ${parsed.line} ${parsed.problem}` }
  return { ok: true, entries: parsed.entries, worldReadable: (mode & 0o004) !== 0 }
}
