// How an option's value is written: as text (a flag or an environment variable) and as JSON in the
// config file, with the check every source goes through. The value types of the option table.
import { ParseResult, Schema } from "effect"
import { EndpointHeaders, type ViewportSize } from "../domain/config.js"

/** How an option's value is written: as text (a flag or an environment variable) and as JSON in the config file. */
export interface ValueType<A> {
  /** Checks a value from any source; the config file's value is decoded with it directly. */
  readonly schema: Schema.Schema<A, any>
  /** The text of a flag or variable as the JSON value `schema` decodes. */
  readonly fromText: (text: string) => unknown
  /** Placeholder in --help and the docs: "URL", "DIR", "N". */
  readonly placeholder: string
  /** What a valid value is, for one-line errors: "true or false", "an absolute URL". */
  readonly expected: string
}

/** Chromium's largest window side. */
const MAX_VIEWPORT = 16_384

const isLocale = (text: string) => {
  try {
    return Intl.getCanonicalLocales(text).length === 1
  } catch {
    return false
  }
}

const isTimeZone = (text: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: text })
    return true
  } catch {
    return false
  }
}

const plain = <A>(schema: Schema.Schema<A, any>, placeholder: string, expected: string): ValueType<A> => ({
  schema,
  fromText: (text) => text,
  placeholder,
  expected
})

export const OptionTypes = {
  boolean: {
    schema: Schema.Boolean,
    fromText: (text: string): unknown => (/^(1|true|yes)$/i.test(text) ? true : /^(0|false|no)$/i.test(text) ? false : text),
    placeholder: "true|false",
    expected: "true or false"
  } satisfies ValueType<boolean>,
  text: (placeholder: string) => plain(Schema.String.pipe(Schema.minLength(1)), placeholder, "a non-empty string"),
  /** A path; relative ones are resolved against the working directory, or the config file's directory in the file. */
  path: (placeholder: string) => plain(Schema.String.pipe(Schema.minLength(1)), placeholder, "a path"),
  url: plain(Schema.String.pipe(Schema.filter((text) => URL.canParse(text))), "URL", "an absolute URL"),
  oneOf: <const Values extends readonly [string, ...Array<string>]>(...values: Values): ValueType<Values[number]> =>
    plain(Schema.Literal(...values), values.join("|"), `one of ${values.join(", ")}`),
  pattern: (placeholder: string, pattern: RegExp, expected: string) => plain(Schema.String.pipe(Schema.pattern(pattern)), placeholder, expected),
  integer: (min: number, max: number): ValueType<number> => ({
    schema: Schema.Number.pipe(Schema.int(), Schema.between(min, max)),
    fromText: (text) => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : text),
    placeholder: "N",
    expected: `a whole number from ${min} to ${max}`
  }),
  /** Comma-separated in a flag or variable ("a,b"), a JSON array in the file. */
  commaList: (placeholder: string): ValueType<ReadonlyArray<string>> => ({
    schema: Schema.Array(Schema.String.pipe(Schema.minLength(1))),
    fromText: (text) => text.split(",").map((item) => item.trim()).filter((item) => item !== ""),
    placeholder,
    expected: "a comma-separated list"
  }),
  /** A JSON array of strings in the variable and the file (items may hold commas); the flag repeats. */
  jsonList: (placeholder: string, example: string): ValueType<ReadonlyArray<string>> => ({
    schema: Schema.Array(Schema.String),
    fromText: (text) => {
      if (text.trim() === "") return []
      try {
        return JSON.parse(text) as unknown
      } catch {
        return text
      }
    },
    placeholder,
    expected: `a JSON array of strings, e.g. ${JSON.stringify([example])}`
  }),
  /** An endpoint URL with one of the given protocols ("ws:", "http:"...). */
  endpoint: (protocols: ReadonlyArray<string>, expected: string) =>
    plain(
      Schema.String.pipe(Schema.filter((text) => URL.canParse(text) && protocols.includes(new URL(text).protocol))),
      "URL",
      expected
    ),
  /**
   * Endpoint URLs with one of the given protocols: one URL or a list. The flag repeats; the variable
   * takes URLs separated by spaces (or a JSON array); the file one URL or an array.
   */
  endpoints: (protocols: ReadonlyArray<string>, expected: string): ValueType<ReadonlyArray<string>> => {
    const endpoint = Schema.String.pipe(
      Schema.filter((text) => URL.canParse(text) && protocols.includes(new URL(text).protocol), { message: () => `must be ${expected}` })
    )
    return {
      schema: Schema.transform(Schema.Union(endpoint, Schema.Array(endpoint)), Schema.Array(Schema.String), {
        strict: true,
        // The same endpoint twice is one browser.
        decode: (value) => [...new Set(typeof value === "string" ? [value] : value)],
        encode: (list) => list
      }),
      fromText: (text) => {
        if (text.trim().startsWith("[")) {
          try {
            return JSON.parse(text) as unknown
          } catch {
            return text
          }
        }
        return text.split(/\s+/).filter((item) => item !== "")
      },
      placeholder: "URL",
      expected: `${expected}, or a list of them`
    }
  },
  /** Headers for remote endpoints: {"Header": "value"} for all, or {"ENDPOINT or host:port or *": {"Header": "value"}}; JSON in the variable. */
  endpointHeaders: {
    schema: Schema.transform(
      Schema.Union(Schema.Record({ key: Schema.String, value: Schema.String }), EndpointHeaders),
      EndpointHeaders,
      {
        strict: true,
        decode: (value) => {
          const entries = Object.values(value)
          return entries.length > 0 && entries.every((item) => typeof item === "string")
            ? { "*": value as Readonly<Record<string, string>> }
            : (value as EndpointHeaders)
        },
        encode: (value) => value
      }
    ),
    fromText: (text: string): unknown => {
      try {
        return JSON.parse(text) as unknown
      } catch {
        return text
      }
    },
    placeholder: "JSON",
    expected: 'a JSON object: {"Header": "value"} for every endpoint, or {"ENDPOINT": {"Header": "value"}} per endpoint (its URL, its host:port, or "*")'
  } satisfies ValueType<EndpointHeaders>,
  /** WIDTHxHEIGHT in a flag, a variable and the file ("1280x720"). */
  size: {
    schema: Schema.transformOrFail(
      Schema.String,
      Schema.Struct({ width: Schema.Number, height: Schema.Number }),
      {
        strict: true,
        decode: (text, _, ast) => {
          const match = /^\s*(\d{1,5})\s*[xX]\s*(\d{1,5})\s*$/.exec(text)
          const width = Number(match?.[1])
          const height = Number(match?.[2])
          return match !== null && width >= 1 && width <= MAX_VIEWPORT && height >= 1 && height <= MAX_VIEWPORT
            ? ParseResult.succeed({ width, height })
            : ParseResult.fail(new ParseResult.Type(ast, text))
        },
        encode: (size) => ParseResult.succeed(`${size.width}x${size.height}`)
      }
    ),
    fromText: (text: string): unknown => text,
    placeholder: "WxH",
    expected: `WIDTHxHEIGHT in pixels, each from 1 to ${MAX_VIEWPORT}, e.g. 1280x720`
  } satisfies ValueType<ViewportSize>,
  locale: plain(Schema.String.pipe(Schema.filter(isLocale)), "LOCALE", "a BCP 47 language tag such as en-US or de-DE"),
  timezone: plain(Schema.String.pipe(Schema.filter(isTimeZone)), "ZONE", "an IANA time zone such as Europe/Berlin or UTC"),
  proxy: plain(
    Schema.String.pipe(Schema.filter((text) => /^[A-Za-z0-9.-]+:\d+$/.test(text) || (URL.canParse(text) && new URL(text).host !== ""))),
    "URL",
    "a proxy such as http://proxy:3128, socks5://proxy:1080 or proxy:3128"
  ),
  /** A structure that only the config file can hold. */
  structure: <A>(schema: Schema.Schema<A, any>, placeholder: string): ValueType<A> => ({
    schema,
    fromText: (text) => text,
    placeholder,
    expected: placeholder
  })
}
