// Checks the shape of src/: no import circle, no import that runs up the layers, no file over 600
// lines, no function over 150. Run by `npm test` (before vitest) and as `npm run check:imports`;
// prints each problem, exits 1.
//
// Every import counts: `import`, `import type`, `export ... from` and `import()`. A type-only import
// is erased at run time, but it is still a dependency a reader must follow, and a dynamic import is
// a static dependency hidden from the compiler; neither may close a circle or run up the layers.
// The imports are read with TypeScript's own pre-processor (`ts.preProcessFile`), not a regex, so
// comments, strings and multi-line import lists cannot fool it.
import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

/**
 * What each part of src/ may import besides itself (a folder, or a file at the top). The order is the
 * layering: domain is pure; knowledge is pure step-memory logic over domain; services are the ports;
 * runtime runs tools; tools are programs over the ports (never adapters); mcp is the wire; adapters
 * implement ports against the world; cli and the entry files wire everything. A part missing here
 * may import nothing of ours.
 */
export const LAYERS = {
  "domain/": [],
  "knowledge/": ["domain/"],
  "capabilities/": ["domain/"],
  "services/": ["domain/", "knowledge/"],
  "runtime/": ["domain/", "knowledge/", "services/"],
  "tools/": ["domain/", "knowledge/", "services/", "capabilities/", "runtime/"],
  "mcp/": ["domain/", "services/", "runtime/"],
  "adapters/": ["domain/", "knowledge/", "services/", "capabilities/"],
  "cli/": ["domain/", "knowledge/", "services/", "capabilities/", "runtime/", "tools/", "mcp/", "adapters/"],
  "cli.ts": ["cli/", "domain/", "knowledge/", "services/", "capabilities/", "runtime/", "tools/", "mcp/", "adapters/"],
  "index.ts": "*",
  "main.ts": ["cli.ts"],
  "bin.ts": ["cli.ts", "adapters/"]
}

/** No file of src/ over this many lines. */
export const MAX_LINES = 600

/**
 * No function over this many lines (declarations, methods, accessors, function expressions and arrow
 * functions, each counted from its first line to its last, nested ones inside it included).
 */
export const MAX_FUNCTION_LINES = 150

/**
 * What a function is called where it is declared: its own name, else the variable, property or method it
 * is the value of (looking through calls such as `Effect.gen(function* () {...})`), else
 * `(anonymous in f)` inside function f, else `(anonymous)`.
 */
const functionName = (node) => {
  if (node.name !== undefined) return node.name.getText()
  let at = node.parent
  while (at !== undefined) {
    if ((ts.isVariableDeclaration(at) || ts.isPropertyAssignment(at) || ts.isPropertyDeclaration(at)) && at.name !== undefined) return at.name.getText()
    if (ts.isFunctionLike(at)) return `(anonymous in ${functionName(at)})`
    if (!(ts.isCallExpression(at) || ts.isParenthesizedExpression(at) || ts.isAsExpression(at) || ts.isSatisfiesExpression(at))) break
    at = at.parent
  }
  return "(anonymous)"
}

/** The functions of one file's text longer than maxLines: `{ name, line, lines }`, outermost first. */
export const longFunctions = (fileName, text, maxLines = MAX_FUNCTION_LINES) => {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true)
  const found = []
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      const lines = last - first + 1
      if (lines > maxLines) found.push({ name: functionName(node), line: first + 1, lines })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const sourceFiles = (root) => {
  const found = []
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (/\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(full)
    }
  }
  walk(root)
  return found.sort()
}

const posix = (relative) => relative.split(path.sep).join("/")

/** The file an import specifier names (`./x.js` is written for `./x.ts`), or undefined for a package. */
const resolveImport = (from, specifier) => {
  if (!specifier.startsWith(".")) return undefined
  const base = path.resolve(path.dirname(from), specifier)
  const candidates = [base.replace(/\.(m|c)?js$/, ".$1ts"), base, `${base}.ts`, path.join(base, "index.ts")]
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile()) ?? base
}

/** `domain/x.ts` -> `domain/`, `cli.ts` -> `cli.ts`: the part of src/ a file belongs to. */
const partOf = (file) => (file.includes("/") ? `${file.split("/")[0]}/` : file)

/** The import graph of root: file (relative, posix) -> the files of ours it imports. */
export const importGraph = (root) => {
  const graph = new Map()
  for (const file of sourceFiles(root)) {
    const text = fs.readFileSync(file, "utf8")
    const { importedFiles } = ts.preProcessFile(text, true, true)
    const targets = new Set()
    for (const { fileName } of importedFiles) {
      const target = resolveImport(file, fileName)
      if (target !== undefined) targets.add(posix(path.relative(root, target)))
    }
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0)
    graph.set(posix(path.relative(root, file)), { imports: [...targets].sort(), lines, text })
  }
  return graph
}

/** The import circles of a graph, each as a path that starts and ends at the same file (Tarjan's SCCs). */
const circles = (edges) => {
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const found = []
  let next = 0
  const visit = (node) => {
    index.set(node, next)
    low.set(node, next)
    next++
    stack.push(node)
    onStack.add(node)
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(low.get(node), low.get(target)))
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)))
    }
    if (low.get(node) !== index.get(node)) return
    const component = new Set()
    let member
    do {
      member = stack.pop()
      onStack.delete(member)
      component.add(member)
    } while (member !== node)
    if (component.size > 1 || (edges.get(node) ?? []).includes(node)) {
      found.push({ circle: shortestCircle(edges, node, component), files: [...component].sort() })
    }
  }
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node)
  return found
}

/** One shortest way from start back to start inside its component (breadth first), to print. */
const shortestCircle = (edges, start, component) => {
  const previous = new Map()
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift()
    for (const target of edges.get(node) ?? []) {
      if (!component.has(target)) continue
      if (target === start) {
        const way = [node]
        while (way[0] !== start) way.unshift(previous.get(way[0]))
        return [...way, start]
      }
      if (!previous.has(target)) {
        previous.set(target, node)
        queue.push(target)
      }
    }
  }
  return [start, start]
}

/** Every problem of the tree at root, as lines to print; empty when the tree is in shape. */
export const checkImports = (root, { layers = LAYERS, maxLines = MAX_LINES, maxFunctionLines = MAX_FUNCTION_LINES } = {}) => {
  const graph = importGraph(root)
  const problems = []
  const edges = new Map()
  for (const [file, { imports, lines, text }] of graph) {
    for (const { name, line, lines: length } of longFunctions(file, text, maxFunctionLines)) {
      problems.push(`long function: ${file}:${name} (line ${line}) has ${length} lines (at most ${maxFunctionLines}); split it`)
    }
    for (const target of imports) {
      const from = partOf(file)
      const to = partOf(target)
      const may = layers[from] ?? []
      if (from !== to && may !== "*" && !may.includes(to)) {
        problems.push(`upward import: ${file} -> ${target} (${from} may import ${may.length === 0 ? "nothing of ours" : may.join(", ")})`)
      }
    }
    edges.set(file, imports)
    if (lines > maxLines) problems.push(`long file: ${file} has ${lines} lines (at most ${maxLines})`)
  }
  for (const { circle, files } of circles(edges)) {
    const more = files.length > circle.length - 1 ? ` (one of the circles among ${files.join(", ")})` : ""
    problems.push(`import circle: ${circle.join(" -> ")}${more}`)
  }
  return problems
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "src"))
  const problems = checkImports(root)
  for (const problem of problems) process.stderr.write(`${problem}\n`)
  if (problems.length > 0) {
    process.stderr.write(`check-imports: ${problems.length} problem(s) in ${root}\n`)
    process.exit(1)
  }
  process.stdout.write(`check-imports: ${root} has no import circle, no upward import, no file over ${MAX_LINES} lines, no function over ${MAX_FUNCTION_LINES} lines\n`)
}
