// scripts/check-imports.mjs (run by `npm test` and `npm run check:imports`) on tiny trees written for
// each test: it finds a circle (also one closed by `import type` or a dynamic import), an import that
// runs up the layers, a long file and a long function.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { checkImports } from "../../scripts/check-imports.mjs"

const roots: Array<string> = []

/** A src/-like tree in a temp directory: relative path -> file text. */
const tree = (files: Record<string, string>): string => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-imports-"))
  roots.push(root)
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }
  return root
}

afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true })
})

describe("check-imports", () => {
  it("passes a tree whose imports run down the layers, with packages and comments ignored", () => {
    const root = tree({
      "domain/target.ts": 'import { Schema } from "effect"\n// import { x } from "../services/Session.js"\nexport const t = 1\n',
      "services/Session.ts": 'import {\n  t\n} from "../domain/target.js"\nexport const s = t\n',
      "tools/click.ts": 'import { s } from "../services/Session.js"\nimport type { t } from "../domain/target.js"\nexport const c = s\n'
    })
    expect(checkImports(root)).toEqual([])
  })

  it("reports a circle, also one closed by a type-only import, as the path around it", () => {
    const root = tree({
      "services/a.ts": 'import { b } from "./b.js"\nexport const a = b\n',
      "services/b.ts": 'import type { c } from "./c.js"\nexport const b = 1 as c\n',
      "services/c.ts": 'export type { a } from "./a.js"\nexport type c = number\n'
    })
    expect(checkImports(root)).toEqual(["import circle: services/a.ts -> services/b.ts -> services/c.ts -> services/a.ts"])
  })

  it("counts a dynamic import(): hiding a circle from the compiler does not hide it from the check", () => {
    const root = tree({
      "tools/lookup.ts": 'export const registry = () => import("./registry.js")\n',
      "tools/registry.ts": 'import { registry } from "./lookup.js"\nexport const all = [registry]\n'
    })
    expect(checkImports(root)).toEqual(["import circle: tools/lookup.ts -> tools/registry.ts -> tools/lookup.ts"])
  })

  it("reports an import that runs up the layers, naming what the part may import", () => {
    const root = tree({
      "runtime/tool.ts": "export const tool = 1\n",
      "knowledge/recipe.ts": 'import { tool } from "../runtime/tool.js"\nexport const r = tool\n',
      "tools/click.ts": 'import { layer } from "../adapters/playwright/index.js"\nexport const c = layer\n',
      "adapters/playwright/index.ts": "export const layer = 1\n"
    })
    expect(checkImports(root)).toEqual([
      "upward import: knowledge/recipe.ts -> runtime/tool.ts (knowledge/ may import domain/)",
      "upward import: tools/click.ts -> adapters/playwright/index.ts (tools/ may import domain/, knowledge/, services/, capabilities/, runtime/)"
    ])
  })

  it("reports a file over the line limit", () => {
    const root = tree({ "domain/config.ts": "export const x = 1\n".repeat(12) })
    expect(checkImports(root, { maxLines: 10 })).toEqual(["long file: domain/config.ts has 12 lines (at most 10)"])
  })

  it("reports a function over the line limit by the name it is declared or assigned under, nested ones too", () => {
    const body = "  x++\n".repeat(8)
    const root = tree({
      "tools/click.ts": `export function click() {\n${body}}\nexport const run = Effect.gen(function* () {\n  const inner = () => {\n${body}  }\n${body}})\nconst short = () => 1\nconst make = (x) => Effect.gen(function* () {\n${body}${body}})\n`
    })
    expect(checkImports(root, { maxFunctionLines: 9 })).toEqual([
      "long function: tools/click.ts:click (line 1) has 10 lines (at most 9); split it",
      "long function: tools/click.ts:run (line 11) has 20 lines (at most 9); split it",
      "long function: tools/click.ts:inner (line 12) has 10 lines (at most 9); split it",
      "long function: tools/click.ts:make (line 32) has 18 lines (at most 9); split it",
      "long function: tools/click.ts:(anonymous in make) (line 32) has 18 lines (at most 9); split it"
    ])
  })

  it("finds src/ itself in shape (as npm run check:imports does)", () => {
    expect(checkImports(path.resolve(import.meta.dirname, "../../src"))).toEqual([])
  })
})
