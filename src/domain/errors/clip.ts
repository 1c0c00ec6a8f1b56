// How much of a value an agent or a page gave may appear in a message: messages quote short prefixes only.
import { cutAtWord } from "../text.js"

/** At most this many characters of a value an agent or a page gave appear in a message. */
export const ECHO_LIMIT = 120

/** The longest page URL an answer shows (a page can make its own URL a megabyte long). */
export const URL_LIMIT = 2_048

/**
 * A value as it may appear in a message: whole when short, else its first `limit` characters and how
 * long it was. A message never carries more than a short prefix of what an agent or a page sent. The cut
 * ends in "…", by which the redaction of the answer knows any beginning of a secret left before it.
 */
export const clip = (value: string, limit = ECHO_LIMIT): string =>
  value.length <= limit ? value : `${value.slice(0, limit)}… (${value.length} characters)`

/**
 * A message as another answer quotes it: whole (messages are short sentences), and only a genuinely huge
 * one cut at a word boundary before `limit` characters.
 */
export const clipMessage = (value: string, limit = 500): string => {
  return value.length <= limit ? value : `${cutAtWord(value, limit).trimEnd()}… (${value.length} characters)`
}

/**
 * Text a page chose (a link's target, a dialog's message, a URL, a function's name) as a notice or an
 * error quotes it: labelled as the page's and JSON-quoted, so its own quotes and line breaks are escaped
 * and it cannot end the quote and go on as the server's words; cut to `limit` characters (then "…").
 */
export const fromPage = (label: string, text: string, limit = ECHO_LIMIT): string =>
  `page ${label}: ${JSON.stringify(text.length <= limit ? text : `${Array.from(text.slice(0, limit + 1)).slice(0, limit).join("")}…`)}`

/** A page's URL as an answer shows it: whole up to URL_LIMIT characters. */
export const shownUrl = (url: string): string => clip(url, URL_LIMIT)
