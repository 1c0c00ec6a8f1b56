// Subcommand arguments: util.parseArgs with our one-line errors (unknown option, missing value, extra words).
import { parseArgs } from "node:util"
import { CliError } from "./cli-error.js"

export type FlagSpec = Readonly<Record<string, { readonly type: "string" | "boolean"; readonly short?: string }>>

/** A subcommand's flags and positional words; throws CliError. */
export const parseSubcommandArgs = <Flags extends FlagSpec>(
  argv: ReadonlyArray<string>,
  flags: Flags,
  maxPositionals: number
): { readonly values: { readonly [K in keyof Flags]?: Flags[K]["type"] extends "boolean" ? boolean : string }; readonly positionals: ReadonlyArray<string> } => {
  const { tokens } = parseArgs({
    args: [...argv],
    options: flags as Record<string, { type: "string" | "boolean"; short?: string }>,
    strict: false,
    allowPositionals: true,
    tokens: true
  })
  const values: Record<string, string | boolean> = {}
  const positionals: Array<string> = []
  for (const token of tokens) {
    if (token.kind === "positional") {
      if (positionals.length >= maxPositionals) throw new CliError(`unexpected argument ${JSON.stringify(token.value)}`)
      positionals.push(token.value)
      continue
    }
    if (token.kind !== "option") continue
    const spec = flags[token.name]
    if (spec === undefined) throw new CliError(`unknown option ${token.rawName}`)
    if (spec.type === "boolean") {
      if (token.value !== undefined) throw new CliError(`${token.rawName} takes no value`)
      values[token.name] = true
    } else {
      if (token.value === undefined) throw new CliError(`${token.rawName} needs a value`)
      values[token.name] = token.value
    }
  }
  return { values: values as never, positionals }
}

/**
 * A subcommand that also takes the server's options: its own flags (--name VALUE or --name=VALUE, each at
 * most once) apart from every other argument, which goes on to the server's option parser. Throws CliError.
 */
export const splitOwnFlags = <Own extends string>(argv: ReadonlyArray<string>, names: ReadonlyArray<Own>) => {
  const own: Partial<Record<Own, string>> = {}
  const rest: Array<string> = []
  let help = false
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!
    if (arg === "--help" || arg === "-h") {
      help = true
      continue
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg)
    const name = match?.[1] as Own | undefined
    if (name === undefined || !names.includes(name)) {
      rest.push(arg)
      continue
    }
    const value = match![2] ?? argv[++index]
    if (value === undefined) throw new CliError(`--${name} needs a value`)
    if (own[name] !== undefined) throw new CliError(`--${name} given twice`)
    own[name] = value
  }
  return { own, rest, help }
}
