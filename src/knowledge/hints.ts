// Refs are numbers a page hands out; to replay a step later we need what the ref pointed at. This
// remembers, per session, the role and name of every ref the agent has seen on the current page.
import type { StepRecord } from "../domain/knowledge.js"
import type { Observation } from "../domain/observation.js"

interface PageRefs {
  readonly url: string
  readonly nodes: Map<string, { readonly role: string; readonly name: string }>
}

/** Sessions remembered at once; the oldest is forgotten first (a server runs one session at a time). */
const MAX_SESSIONS = 16

const pageOf = (url: string) => url.split("#")[0] ?? url

export class RefHints {
  private readonly pages = new Map<string, PageRefs>()

  private remember(sessionId: string, observation: Observation | undefined): void {
    if (observation === undefined) return
    const url = pageOf(observation.state.currentUrl)
    const known = this.pages.get(sessionId)
    // Refs restart on a new document: what another page's e3 was says nothing about this one's.
    const page = known !== undefined && known.url === url ? known : { url, nodes: new Map() }
    for (const node of observation.a11y?.nodes ?? []) page.nodes.set(node.ref, { role: node.role, name: node.name })
    this.pages.delete(sessionId)
    this.pages.set(sessionId, page)
    if (this.pages.size > MAX_SESSIONS) this.pages.delete(this.pages.keys().next().value!)
  }

  /**
   * The step with `target.a11yHint` filled for a ref target: from the page as the agent saw it before the
   * step, else from the step's own observation when the page did not change. Then remembers that observation.
   */
  enrich(step: StepRecord): StepRecord {
    const target = step.tool.target
    let enriched = step
    if (target?.a11yRef !== undefined && target.a11yHint === undefined) {
      const before = this.pages.get(step.sessionId)
      const afterUrl = step.observation === undefined ? undefined : pageOf(step.observation.state.currentUrl)
      const after =
        before === undefined || afterUrl === before.url
          ? step.observation?.a11y?.nodes.find((node) => node.ref === target.a11yRef)
          : undefined
      const hint = before?.nodes.get(target.a11yRef) ?? (after === undefined ? undefined : { role: after.role, name: after.name })
      if (hint !== undefined && hint.name !== "") {
        enriched = { ...step, tool: { ...step.tool, target: { ...target, a11yHint: { role: hint.role, name: hint.name } } } }
      }
    }
    this.remember(step.sessionId, step.observation)
    return enriched
  }
}
