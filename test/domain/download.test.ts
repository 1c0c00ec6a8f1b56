// The pure rules of downloads: a page's suggested name as a safe file name, the next free name, the
// type of a data: URL or an extension, and the replay's check of a step's downloads against the recorded ones.
import { describe, expect, it } from "@effect/vitest"
import { downloadNamePattern, mimeOf, nextFreeName, safeFileName, sameDownloadName } from "../../src/domain/download.js"
import type { Recipe } from "../../src/domain/knowledge.js"
import { downloadMismatch } from "../../src/tools/replay.js"

describe("download names", () => {
  it("a suggested name loses directory parts, control characters and leading dots, and is never empty", () => {
    expect(safeFileName("../../etc/passwd")).toBe("passwd")
    expect(safeFileName("..\\..\\x.txt")).toBe("x.txt")
    expect(safeFileName(".bashrc")).toBe("bashrc")
    expect(safeFileName("a\u0000b\nc.csv")).toBe("a_b_c.csv")
    expect(safeFileName("..")).toBe("download")
    expect(safeFileName("")).toBe("download")
    const long = safeFileName(`${"x".repeat(300)}.pdf`)
    expect(long).toHaveLength(150)
    expect(long.endsWith(".pdf")).toBe(true)
  })

  it("a page's name can neither spoof its extension nor be too long for the file system, in bytes", () => {
    // A right-to-left override makes "report\u202Efdp.exe" read "reportexe.pdf"; zero-width and C1 characters hide.
    expect(safeFileName("report\u202Efdp.exe")).toBe("reportfdp.exe")
    expect(safeFileName("a\u200bb\u0085c\u2028d.txt")).toBe("ab_c_d.txt")
    // 150 emoji are 600 bytes: kept whole, never split, within 180 bytes with the extension.
    for (const name of [`${"😀".repeat(150)}.pdf`, `${"é".repeat(200)}.csv`, "😀".repeat(100)]) {
      const safe = safeFileName(name)
      expect(Buffer.byteLength(safe), name.slice(0, 8)).toBeLessThanOrEqual(180)
      expect(safe).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
      expect(safe.length).toBeGreaterThan(40)
    }
    expect(safeFileName(`${"😀".repeat(150)}.pdf`).endsWith("😀.pdf")).toBe(true)
    // A lone surrogate is no file name character.
    expect(safeFileName("a\ud800b.txt")).toBe("a_b.txt")
  })

  it("a taken name is numbered, keeping its extension", () => {
    expect(nextFreeName("report.csv")).toBe("report (2).csv")
    expect(nextFreeName("report (2).csv")).toBe("report (3).csv")
    expect(nextFreeName("README")).toBe("README (2)")
  })

  it("the type comes from a data: URL, else from the extension", () => {
    expect(mimeOf("x.bin", "data:text/plain;base64,eA==")).toBe("text/plain")
    expect(mimeOf("report.CSV", "https://example.test/r")).toBe("text/csv")
    expect(mimeOf("noext", "blob:https://example.test/1")).toBeUndefined()
  })

  it("a response's declared type wins (not a generic one), then a data: URL's, then the first bytes, then the extension; a zip-based office file keeps its own", () => {
    const bytes = (text: string) => new Uint8Array(Buffer.from(text, "latin1"))
    expect(mimeOf("export", "https://example.test/e", { contentType: "text/csv; charset=utf-8" })).toBe("text/csv")
    expect(mimeOf("x.pdf", "https://example.test/e", { contentType: "application/octet-stream", head: bytes("PK\x03\x04") })).toBe("application/zip")
    expect(mimeOf("statement", "blob:https://example.test/1", { head: bytes("%PDF-1.7") })).toBe("application/pdf")
    expect(mimeOf("photo.dat", "https://example.test/p", { head: bytes("\x89PNG\r\n\x1a\n") })).toBe("image/png")
    expect(mimeOf("pic", "https://example.test/p", { head: bytes("RIFF\x00\x00\x00\x00WEBPVP8 ") })).toBe("image/webp")
    expect(mimeOf("sheet.xlsx", "https://example.test/s", { head: bytes("PK\x03\x04") })).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    expect(mimeOf("notes.txt", "https://example.test/n", { head: bytes("hello") })).toBe("text/plain")
  })
})

describe("the replay's download check", () => {
  const recipe: Recipe = {
    steps: [
      { tool: "mm_navigate", args: {}, notes: "Start" },
      { tool: "mm_click", args: {}, notes: "Click", downloads: [{ name: "r.csv", sha256: "aa" }] }
    ],
    placeholders: [],
    skipped: []
  }
  it("passes when the step downloaded the same name and hash, counting the batch steps before the recipe's", () => {
    expect(downloadMismatch(recipe, [{}, {}, { downloads: [{ name: "r.csv", sha256: "aa" }] }], 1, true)).toBeUndefined()
  })
  it("fails naming the step when the file is missing, renamed, or (with hashes) different", () => {
    expect(downloadMismatch(recipe, [{}, {}], 0, true)).toEqual({ index: 1, message: 'expected the download "r.csv" (recorded), got no download.' })
    expect(downloadMismatch(recipe, [{}, { downloads: [{ name: "s.csv" }] }], 0, true)?.message).toBe('expected the download "r.csv" (recorded), got "s.csv".')
    expect(downloadMismatch(recipe, [{}, { downloads: [{ name: "r.csv", sha256: "bb" }] }], 0, true)?.message).toBe('"r.csv" is not the recorded file (hash mismatch): expected sha256 aa, got sha256 bb.')
    // A name with a timestamp in it matches the same name with another timestamp (Swagger UI's Download button).
    const swagger: Recipe = { ...recipe, steps: [recipe.steps[0]!, { ...recipe.steps[1]!, downloads: [{ name: "response_1795780842562.json", sha256: "aa" }] }] }
    expect(downloadMismatch(swagger, [{}, { downloads: [{ name: "response_1795780873194.json", sha256: "aa" }] }], 0, true)).toBeUndefined()
    expect(downloadMismatch(swagger, [{}, { downloads: [{ name: "response_1795780873194.json", sha256: "bb" }] }], 0, true)?.message).toContain("expected sha256 aa, got sha256 bb")
    expect(downloadMismatch(swagger, [{}, { downloads: [{ name: "request_1795780873194.json" }] }], 0, false)?.message).toContain('got "request_1795780873194.json"')
    // A flow with params may download other content under the same name: only the name is checked.
    expect(downloadMismatch(recipe, [{}, { downloads: [{ name: "r.csv", sha256: "bb" }] }], 0, false)).toBeUndefined()
  })
})

describe("a recorded download's name", () => {
  it("is compared exactly unless a part changes every run: a timestamp or id, a UUID, a long hex string", () => {
    expect(downloadNamePattern("report.csv").pattern).toBeUndefined()
    expect(downloadNamePattern("report-2024.csv").pattern).toBeUndefined()
    expect(sameDownloadName("report.csv", "report.csv")).toBe(true)
    expect(sameDownloadName("report.csv", "report (2).csv")).toBe(false)
    expect(sameDownloadName("response_1795780842562.json", "response_1795780873194.json")).toBe(true)
    expect(sameDownloadName("response_1795780842562.json", "response_17.json")).toBe(false)
    expect(sameDownloadName("response_1795780842562.json", "response_1795780842562.csv")).toBe(false)
    expect(sameDownloadName("export-3f2b8c1e-9a4d-4e2f-8b1c-0d9e8f7a6b5c.zip", "export-0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d.zip")).toBe(true)
    expect(sameDownloadName("build-0123456789abcdef0123.tar.gz", "build-fedcba9876543210fedc.tar.gz")).toBe(true)
    expect(sameDownloadName("a.b(1)_12345.txt", "a.b(1)_67890.txt")).toBe(true)
  })
})
