// The text mm_type gets for a date, time, month, week or range input, as the input takes it: the
// forms people write, day and month in the page's locale's order when the numbers leave it open, and
// what the input expects when the text is none of them.
import { describe, expect, it } from "@effect/vitest"
import { fieldValueFor, rangeValueFor } from "../../src/adapters/playwright/page/field-values.js"

const value = (type: string, text: string, locale = "en-US") => fieldValueFor(type, text, locale)

describe("fieldValueFor", () => {
  it("reads a date in ISO and the common human forms", () => {
    for (const text of ["2025-04-20", "2025/04/20", "04/20/2025", "4/20/25", "20.04.2025", "April 20, 2025", "20 April 2025", "Apr 20th 2025", "20. April 2025"]) {
      expect(value("date", text), text).toEqual({ value: "2025-04-20" })
    }
  })

  it("orders an ambiguous day and month by the locale, and a number above 12 by itself", () => {
    expect(value("date", "03/04/2025", "en-US")).toEqual({ value: "2025-03-04" })
    expect(value("date", "03/04/2025", "en-GB")).toEqual({ value: "2025-04-03" })
    expect(value("date", "03/04/2025", "de-DE")).toEqual({ value: "2025-04-03" })
    expect(value("date", "20/04/2025", "en-US")).toEqual({ value: "2025-04-20" })
    expect(value("date", "20 avril 2025", "fr-FR")).toEqual({ value: "2025-04-20" })
  })

  it("refuses what is no date, naming the format", () => {
    for (const text of ["tomorrow", "2025-02-30", "13/13/2025", "April 2025"]) {
      expect(value("date", text), text).toEqual({ expected: expect.stringContaining("YYYY-MM-DD") })
    }
    expect(value("date", "")).toEqual({ value: "" })
  })

  it("reads times, dates with times, months and weeks", () => {
    expect(value("time", "14:30")).toEqual({ value: "14:30" })
    expect(value("time", "2:30 PM")).toEqual({ value: "14:30" })
    expect(value("time", "12 am")).toEqual({ value: "00:00" })
    expect(value("time", "9.05")).toEqual({ value: "09:05" })
    expect(value("time", "25:00")).toEqual({ expected: expect.stringContaining("HH:MM") })
    expect(value("datetime-local", "2025-04-20T14:30")).toEqual({ value: "2025-04-20T14:30" })
    expect(value("datetime-local", "04/20/2025 2:30 PM")).toEqual({ value: "2025-04-20T14:30" })
    expect(value("datetime-local", "April 20, 2025 at 14:30")).toEqual({ value: "2025-04-20T14:30" })
    expect(value("datetime-local", "2025-04-20")).toEqual({ expected: expect.stringContaining("YYYY-MM-DDTHH:MM") })
    expect(value("month", "April 2025")).toEqual({ value: "2025-04" })
    expect(value("month", "04/2025")).toEqual({ value: "2025-04" })
    expect(value("month", "2025-4")).toEqual({ value: "2025-04" })
    expect(value("week", "2025-W16")).toEqual({ value: "2025-W16" })
    expect(value("week", "2025-04-20")).toEqual({ value: "2025-W16" })
    expect(value("week", "2024-12-30")).toEqual({ value: "2025-W01" })
    expect(value("week", "soon")).toEqual({ expected: expect.stringContaining("YYYY-Www") })
    expect(value("text", "anything")).toBeUndefined()
  })
})

describe("rangeValueFor", () => {
  it("takes a number within the bounds, on the nearest step; refuses others naming the bounds", () => {
    expect(rangeValueFor("50", 0, 100, 10)).toEqual({ value: "50" })
    expect(rangeValueFor("56", 0, 100, 10)).toEqual({ value: "60" })
    expect(rangeValueFor("0.3", 0, 1, 0.1)).toEqual({ value: "0.3" })
    expect(rangeValueFor("150", 0, 100, 10)).toEqual({ expected: "a range input takes a number from 0 to 100 in steps of 10" })
    expect(rangeValueFor("loud", 0, 100, undefined)).toEqual({ expected: "a range input takes a number from 0 to 100" })
  })
})
