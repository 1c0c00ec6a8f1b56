// Reads the snapshot text back into nodes for assertions: role, name, ref, text and indentation.
export interface ParsedLine {
  readonly depth: number
  readonly role: string
  readonly name: string
  readonly ref: string | undefined
  readonly states: ReadonlyArray<string>
  readonly text: string | undefined
  readonly line: string
}

/** The lines of a page text (the envelope's snapshot; none when it is absent). */
export const parseSnapshot = (snapshot: string | undefined): Array<ParsedLine> =>
  (snapshot ?? "")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.trim().startsWith("…") && !line.trim().startsWith("("))
    .map((line) => {
      const depth = (line.length - line.trimStart().length) / 2
      let rest = line.trim().replace(/^▶ /, "")
      const role = /^[a-z]+/.exec(rest)?.[0] ?? ""
      rest = rest.slice(role.length)
      let name = ""
      const quoted = /^ ("(?:[^"\\]|\\.)*")/.exec(rest)
      if (quoted) {
        name = JSON.parse(quoted[1]!)
        rest = rest.slice(quoted[0].length)
      }
      const states: Array<string> = []
      let ref: string | undefined
      for (let bracket = /^ ?(×\d+ )?\[([^\]]*)\]/.exec(rest); bracket; bracket = /^ ?\[([^\]]*)\]/.exec(rest)) {
        const body = bracket[bracket.length - 1]!
        if (/^e\d+/.test(body)) ref = body.split(/[.,]/)[0]
        else states.push(...body.split(", "))
        rest = rest.slice(bracket[0].length)
      }
      const text = rest.startsWith(": ") ? rest.slice(2) : undefined
      return { depth, role, name, ref, states, text, line }
    })

/** The nodes of a snapshot text with this role and name. */
export const linesNamed = (snapshot: string | undefined, role: string, name: string) =>
  parseSnapshot(snapshot).filter((line) => line.role === role && line.name === name)
