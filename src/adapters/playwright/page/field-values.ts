// In the page, for mm_type into an input that holds a value in a fixed form (date, time, datetime-local,
// month, week, range): the text as the input takes it. A person writes "04/20/2025", "20.04.2025",
// "April 20, 2025" or "2:30 PM"; the input takes "2025-04-20" and "14:30" and drops anything else,
// leaving the field empty. Day and month in an ambiguous numeric date follow the page's locale
// (navigator.language). Pure: the caller gives the locale.

/** The value the input takes, or what it expects when the text is none of the forms read. */
export type FieldValue = { readonly value: string } | { readonly expected: string }

const EXPECTED: Readonly<Record<string, string>> = {
  date: "a date input takes YYYY-MM-DD (e.g. 2025-04-20; 04/20/2025, 20.04.2025 and April 20, 2025 are read too)",
  time: "a time input takes HH:MM, 24-hour (e.g. 14:30; 2:30 PM is read too)",
  "datetime-local": "a date and time input takes YYYY-MM-DDTHH:MM (e.g. 2025-04-20T14:30; 04/20/2025 2:30 PM is read too)",
  month: "a month input takes YYYY-MM (e.g. 2025-04; April 2025 and 04/2025 are read too)",
  week: "a week input takes YYYY-Www (e.g. 2025-W16; a date is read as its week too)"
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/** Month names (long and short) in English and the locale, lower case without dots: month number. */
const monthNames = (locale: string): Map<string, number> => {
  const names = new Map<string, number>()
  for (const tag of ["en", locale]) {
    for (const month of ["long", "short"] as const) {
      let format: Intl.DateTimeFormat
      try {
        format = new Intl.DateTimeFormat(tag, { month, timeZone: "UTC" })
      } catch {
        continue
      }
      for (let m = 1; m <= 12; m++) names.set(format.format(Date.UTC(2025, m - 1, 15)).toLowerCase().replace(/\./g, ""), m)
    }
  }
  names.set("sept", 9)
  return names
}

/** Whether the locale writes the day before the month in a numeric date (20/04/2025), from its own format. */
const dayFirst = (locale: string): boolean => {
  try {
    const parts = new Intl.DateTimeFormat(locale, { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "UTC" }).formatToParts(Date.UTC(2025, 3, 20))
    return parts.findIndex((part) => part.type === "day") < parts.findIndex((part) => part.type === "month")
  } catch {
    return false
  }
}

const validDate = (year: number, month: number, day: number): string | undefined => {
  if (year < 1 || month < 1 || month > 12 || day < 1) return undefined
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`
}

const fullYear = (text: string) => (text.length <= 2 ? 2000 + Number(text) : Number(text))

/** A date as YYYY-MM-DD, from ISO (2025-04-20, 2025/04/20), numeric day and month in either order, or with a month name. */
export const parseDate = (text: string, locale: string): string | undefined => {
  const t = text.trim().replace(/\s+/g, " ")
  let match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(t)
  if (match !== null) return validDate(Number(match[1]), Number(match[2]), Number(match[3]))
  match = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})$/.exec(t)
  if (match !== null) {
    const [a, b, year] = [Number(match[1]), Number(match[3]), fullYear(match[4]!)]
    // 20.04.2025 is day first wherever it is written; otherwise a number above 12 says, else the locale.
    const first = match[2] === "." || a > 12 ? "day" : b > 12 ? "month" : dayFirst(locale) ? "day" : "month"
    return first === "day" ? validDate(year, b, a) : validDate(year, a, b)
  }
  const names = monthNames(locale)
  const words = t.toLowerCase().replace(/[.,]/g, " ").replace(/(\d)(st|nd|rd|th)\b/g, "$1").split(" ").filter((word) => word !== "" && word !== "of")
  if (words.length !== 3) return undefined
  const monthAt = words.findIndex((word) => names.has(word))
  if (monthAt < 0) return undefined
  const numbers = words.filter((_, i) => i !== monthAt)
  if (!numbers.every((word) => /^\d+$/.test(word))) return undefined
  const month = names.get(words[monthAt]!)!
  // April 20 2025, 20 April 2025, 2025 April 20.
  const [day, year] = numbers[0]!.length === 4 ? [numbers[1]!, numbers[0]!] : [numbers[0]!, numbers[1]!]
  return year.length === 4 ? validDate(Number(year), month, Number(day)) : undefined
}

/** A time as HH:MM (or HH:MM:SS), from 24-hour 14:30 or 14.30, or 12-hour 2:30 PM and 2 PM. */
export const parseTime = (text: string): string | undefined => {
  const match = /^(\d{1,2})(?:[:.](\d{2})(?::(\d{2}))?)?\s*([ap])?\.?\s*(m\.?)?$/i.exec(text.trim())
  if (match === null || (match[2] === undefined && match[4] === undefined)) return undefined
  let hours = Number(match[1])
  const [minutes, seconds] = [Number(match[2] ?? 0), match[3]]
  if (match[4] !== undefined) {
    if (hours < 1 || hours > 12) return undefined
    hours = (hours % 12) + (match[4].toLowerCase() === "p" ? 12 : 0)
  }
  if (hours > 23 || minutes > 59 || (seconds !== undefined && Number(seconds) > 59)) return undefined
  return `${pad(hours)}:${pad(minutes)}${seconds !== undefined ? `:${seconds}` : ""}`
}

/** The ISO week (YYYY-Www) of a YYYY-MM-DD date. */
const weekOf = (date: string): string => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  const d = new Date(Date.UTC(year, month - 1, day))
  const weekday = d.getUTCDay() === 0 ? 7 : d.getUTCDay()
  d.setUTCDate(d.getUTCDate() + 4 - weekday)
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1)
  return `${d.getUTCFullYear()}-W${pad(Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7))}`
}

const parseMonth = (text: string, locale: string): string | undefined => {
  const t = text.trim()
  const numeric = /^(\d{4})[-/.](\d{1,2})$/.exec(t)
  const reversed = /^(\d{1,2})[-/.](\d{4})$/.exec(t)
  const [year, month] = numeric !== null ? [numeric[1]!, numeric[2]!] : reversed !== null ? [reversed[2]!, reversed[1]!] : ["", ""]
  if (year !== "") return Number(month) >= 1 && Number(month) <= 12 ? `${year}-${pad(Number(month))}` : undefined
  const words = t.toLowerCase().replace(/[.,]/g, " ").split(" ").filter((word) => word !== "")
  const names = monthNames(locale)
  if (words.length !== 2) return undefined
  const [name, spelledYear] = names.has(words[0]!) ? [words[0]!, words[1]!] : [words[1]!, words[0]!]
  return names.has(name) && /^\d{4}$/.test(spelledYear) ? `${spelledYear}-${pad(names.get(name)!)}` : undefined
}

const parseWeek = (text: string, locale: string): string | undefined => {
  const t = text.trim()
  const iso = /^(\d{4})-?W(\d{1,2})$/i.exec(t)
  const spoken = /^W(?:eek)?\s*(\d{1,2}),?\s+(\d{4})$/i.exec(t)
  const [year, week] = iso !== null ? [iso[1]!, iso[2]!] : spoken !== null ? [spoken[2]!, spoken[1]!] : ["", ""]
  if (year !== "") return Number(week) >= 1 && Number(week) <= 53 ? `${year}-W${pad(Number(week))}` : undefined
  const date = parseDate(t, locale)
  return date === undefined ? undefined : weekOf(date)
}

const parseDateTime = (text: string, locale: string): string | undefined => {
  const t = text.trim()
  const iso = /^(\d{4}-\d{1,2}-\d{1,2})[T ](\d{1,2}:\d{2}(?::\d{2})?)$/.exec(t)
  const [datePart, timePart] =
    iso !== null
      ? [iso[1]!, iso[2]!]
      : (() => {
          const at = /(\d{1,2}(?:[:.]\d{2}(?::\d{2})?)?\s*(?:[ap]\.?m\.?)?)$/i.exec(t)
          return at === null ? ["", ""] : [t.slice(0, at.index).replace(/(,|\bat)\s*$/i, "").trim(), at[1]!]
        })()
  const date = datePart === "" ? undefined : parseDate(datePart, locale)
  const time = parseTime(timePart)
  return date === undefined || time === undefined ? undefined : `${date}T${time}`
}

/**
 * The value an input of `type` takes for `text`, read in the page's `locale`; undefined for a type
 * whose text goes in as it is. Empty text clears the input.
 */
export const fieldValueFor = (type: string, text: string, locale: string): FieldValue | undefined => {
  const expected = EXPECTED[type]
  if (expected === undefined) return undefined
  if (text.trim() === "") return { value: "" }
  const value =
    type === "date"
      ? parseDate(text, locale)
      : type === "time"
        ? parseTime(text)
        : type === "month"
          ? parseMonth(text, locale)
          : type === "week"
            ? parseWeek(text, locale)
            : parseDateTime(text, locale)
  return value === undefined ? { expected } : { value }
}

/**
 * The value a range input takes for `text`: a number within its min and max, on its step (the nearest
 * one, as the browser would put it); else what it expects.
 */
export const rangeValueFor = (text: string, min: number, max: number, step: number | undefined): FieldValue => {
  const expected = `a range input takes a number from ${min} to ${max}${step !== undefined ? ` in steps of ${step}` : ""}`
  const number = Number(text.trim().replace(/%$/, ""))
  if (text.trim() === "" || !Number.isFinite(number) || number < min || number > max) return { expected }
  if (step === undefined) return { value: String(number) }
  const snapped = Math.min(max, min + Math.round((number - min) / step) * step)
  return { value: String(Number(snapped.toFixed(10))) }
}
