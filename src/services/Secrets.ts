// Secrets by name (--secrets FILE): tools look a value up by its name, and everything the server
// answers, records or logs goes through `redact`, which replaces each value by [secret:NAME].
import { Context, Layer, Option } from "effect"
import { makeTextRedactor, redactionReach, redactValue } from "../domain/secrets.js"

export interface SecretsService {
  /** The names, for error messages (never the values). */
  readonly names: ReadonlyArray<string>
  /** The value of a secret by its name. */
  readonly lookup: (name: string) => Option.Option<string>
  /** A text with every secret value replaced by its marker. */
  readonly redactText: (text: string) => string
  /** How many characters past a cut a secret's form may reach (redactThenCut). */
  readonly reach: number
  /** A JSON-like value with every string scrubbed as redactText does. */
  readonly redact: <A>(value: A) => A
}

export class Secrets extends Context.Tag("browser-workflow-mcp/Secrets")<Secrets, SecretsService>() {
  /**
   * `hidden` are redacted like the others but are no secret a tool may use or name: the values of the
   * endpoint headers (`endpointHeaders`), which only the connection to a remote browser sends.
   */
  static readonly make = (entries: ReadonlyMap<string, string>, hidden: ReadonlyMap<string, string> = new Map()): SecretsService => {
    const redacted = hidden.size === 0 ? entries : new Map([...hidden, ...entries])
    const redactText = makeTextRedactor(redacted)
    return {
      names: [...entries.keys()],
      lookup: (name) => (entries.has(name) ? Option.some(entries.get(name)!) : Option.none()),
      redactText,
      reach: redactionReach(redacted),
      redact: <A>(value: A) => (redacted.size === 0 ? value : (redactValue(redactText, value) as A))
    }
  }

  /** The same secrets, and `scrub` run on every text after them (the values typed into the session's secret fields). */
  static readonly andThen = (secrets: SecretsService, scrub: (text: string) => string): SecretsService => {
    const redactText = (text: string) => scrub(secrets.redactText(text))
    return { ...secrets, redactText, redact: <A>(value: A) => redactValue(redactText, value) as A }
  }

  static readonly layer = (entries: ReadonlyMap<string, string>) => Layer.succeed(Secrets, Secrets.make(entries))

  static readonly none: SecretsService = Secrets.make(new Map())
}
