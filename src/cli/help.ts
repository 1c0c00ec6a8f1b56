// --help and the options table of docs/configuration.md, both written from the one option table.
import { optionTable, type OptionSection, type OptionSpec } from "./option-table.js"
import { commandFlags, isBooleanOption } from "./options.js"

type AnySpec = OptionSpec<unknown, unknown>

const sections: ReadonlyArray<readonly [OptionSection, string]> = [
  ["browser", "Browser"],
  ["remote", "Remote browser (instead of launching one)"],
  ["context", "Profile and emulation"],
  ["security", "URL policy and secrets"],
  ["tools", "Tools and responses"],
  ["server", "Server"],
  ["http", "Streamable HTTP (instead of stdio)"],
  ["file", "Config file only"]
]

const specs = Object.entries(optionTable) as unknown as ReadonlyArray<readonly [string, AnySpec]>

/** How the flag is written: "--app-url URL", "--headless, --headed", "--browser-arg ARG (repeatable)". */
const flagUsage = (spec: AnySpec) => {
  if (spec.flag === undefined) return undefined
  if (isBooleanOption(spec)) return spec.negation === undefined ? `--${spec.flag}` : `--${spec.flag}, --${spec.negation}`
  return `--${spec.flag} ${spec.type.placeholder}`
}

const defaultShown = (spec: AnySpec) => {
  if (spec.defaultText !== undefined) return spec.defaultText
  if (typeof spec.default === "string") return spec.default === "" ? '""' : spec.default
  if (Array.isArray(spec.default) && spec.default.length === 0) return "none"
  return JSON.stringify(spec.default)
}

const COLUMN = 28
const WIDTH = 100
const INDENT = " ".repeat(COLUMN + 4)

/** "  --flag VALUE   help text", the help wrapped at WIDTH and under its column. */
const entry = (usage: string, help: string) => {
  const words = help.split(" ")
  const lines: Array<string> = []
  let line = ""
  for (const word of words) {
    if (line !== "" && INDENT.length + line.length + 1 + word.length > WIDTH) {
      lines.push(line)
      line = word
    } else line = line === "" ? word : `${line} ${word}`
  }
  lines.push(line)
  const head = usage.length > COLUMN ? [`  ${usage}`, `${INDENT}${lines[0]}`] : [`  ${usage.padEnd(COLUMN + 2)}${lines[0]}`]
  return [...head, ...lines.slice(1).map((rest) => `${INDENT}${rest}`)]
}

/** The --help text. */
export const helpText = (version: string, subcommands: ReadonlyArray<{ readonly usage: string }>) => {
  const lines = [
    `browser-workflow-mcp ${version}: an MCP server that drives Chromium for LLM agents, over stdio or Streamable HTTP.`,
    "",
    `Usage: browser-workflow-mcp [options]`,
    ...subcommands.map((command) => `       browser-workflow-mcp ${command.usage}`),
    "",
    "Each option is a flag, an environment variable and a config-file key. Flags win over the environment,",
    "which wins over the config file, which wins over the defaults. docs/configuration.md has the details.",
    "",
    ...entry(`--${commandFlags.config.flag} ${commandFlags.config.placeholder}`, commandFlags.config.help),
    `${INDENT}env ${commandFlags.config.env}`,
    ...entry(`-${commandFlags.help.short}, --${commandFlags.help.flag}`, commandFlags.help.help),
    ...entry(`-${commandFlags.version.short}, --${commandFlags.version.flag}`, commandFlags.version.help)
  ]
  for (const [section, title] of sections) {
    lines.push("", `${title}:`)
    for (const [key, spec] of specs) {
      if (spec.section !== section) continue
      const where = [spec.env === undefined ? undefined : `env ${spec.env}`, `config ${key}`, `default ${defaultShown(spec)}`]
        .filter((part) => part !== undefined)
        .join(", ")
      // An option without a flag is written as what sets it (the variable; in the file-only section, its key), never like a flag.
      const usage = flagUsage(spec) ?? (spec.env !== undefined && section !== "file" ? `${spec.env}=${spec.type.placeholder}` : `${key} ${spec.type.placeholder}`)
      lines.push(...entry(usage, spec.help), ...entry("", spec.flag === undefined && section !== "file" ? `no flag: ${where}` : where))
    }
  }
  return lines.join("\n") + "\n"
}

const code = (text: string) => `\`${text.replaceAll("|", "\\|")}\``
const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ")

/** The options table of docs/configuration.md (between its markers). */
export const optionsMarkdown = () => {
  const rows = [
    "| flag | environment | config key | default | meaning |",
    "| --- | --- | --- | --- | --- |",
    `| ${code(`--${commandFlags.config.flag} ${commandFlags.config.placeholder}`)} | ${code(commandFlags.config.env)} | | none | ${cell(commandFlags.config.help)} |`
  ]
  for (const [section] of sections) {
    for (const [key, spec] of specs) {
      if (spec.section !== section) continue
      const usage = flagUsage(spec)
      const flag = usage === undefined ? "" : usage.split(", ").map(code).join(" / ") + (spec.repeatable === true ? " (repeatable)" : "")
      const env = spec.env === undefined ? "" : code(spec.env)
      const meaning = cell(spec.details === undefined ? spec.help : `${spec.help} ${spec.details}`)
      const placeholder = spec.flag === undefined ? ` ${code(spec.type.placeholder)}` : ""
      rows.push(`| ${flag} | ${env} | ${code(key)}${placeholder} | ${cell(defaultShown(spec))} | ${meaning} |`)
    }
  }
  return rows.join("\n") + "\n"
}

export const DOCS_BEGIN = "<!-- options:begin: generated from src/cli/option-table.ts by `npm run docs:options`; do not edit -->"
export const DOCS_END = "<!-- options:end -->"

/** The docs file with its options table replaced by the current one. */
export const withOptionsTable = (markdown: string) => {
  const begin = markdown.indexOf(DOCS_BEGIN)
  const end = markdown.indexOf(DOCS_END)
  if (begin < 0 || end < begin) throw new Error("docs/configuration.md lacks the options markers")
  return `${markdown.slice(0, begin + DOCS_BEGIN.length)}\n${optionsMarkdown()}${markdown.slice(end)}`
}
