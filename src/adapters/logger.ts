// Logs go to stderr, one logfmt-style line each: stdout belongs to the MCP protocol.
import { Cause, HashMap, Layer, List, Logger, LogLevel } from "effect"

const quote = (value: string) => (/[\s"=]/.test(value) ? JSON.stringify(value) : value)

const stderrLogger = (redact: (text: string) => string) => Logger.make(({ annotations, cause, date, logLevel, message, spans }) => {
  const parts = [`time=${date.toISOString()}`, `level=${logLevel.label}`]
  const messages = Array.isArray(message) ? message : [message]
  parts.push(`msg=${quote(messages.map((part) => (typeof part === "string" ? part : JSON.stringify(part))).join(" "))}`)
  for (const span of List.toArray(spans)) parts.push(`span=${quote(span.label)}`)
  for (const [key, value] of HashMap.toEntries(annotations)) parts.push(`${key}=${quote(String(value))}`)
  if (!Cause.isEmpty(cause)) parts.push(`cause=${quote(Cause.pretty(cause))}`)
  process.stderr.write(redact(parts.join(" ")) + "\n")
})

export const levels = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  none: LogLevel.None
} as const
export type LevelName = keyof typeof levels

/**
 * Replaces Effect's default (stdout) logger with the stderr one, at the given level; every line goes
 * through `redact` (the secrets' values out) before it is written.
 */
export const layer = (level: LevelName = "info", redact: (text: string) => string = (text) => text) =>
  Layer.merge(Logger.replace(Logger.defaultLogger, stderrLogger(redact)), Logger.minimumLogLevel(levels[level]))
