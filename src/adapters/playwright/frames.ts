// Cross-origin iframes. Their documents live in another process (out-of-process frames), so the page's
// own walk sees only the frame element: each is walked through its own Playwright frame, its nodes go
// under the frame's node (with the frame in their path), and a ref inside one is found for actions.
import type { Frame, Page } from "playwright"
import { checkRefExpression, installedCallExpression, installedObserveExpression, type ObserveArgs, type ObserveResult, type RawNode, type RefCheck } from "./page-script.js"

/** How long one frame may take to answer before the observation goes on without it. */
const FRAME_TIMEOUT_MS = 2_000

const originOf = (url: string) => {
  try {
    return new URL(url).origin
  } catch {
    return "null"
  }
}

/** about:blank and srcdoc frames take their parent's origin, and the parent's walk enters them. */
const inheritsOrigin = (url: string) => url === "" || url.startsWith("about:")

/** Frames the walk of their parent document cannot enter: another origin (or an opaque one), outermost first. */
export const separateFrames = (page: Page): ReadonlyArray<Frame> => {
  const depth = (frame: Frame) => {
    let count = 0
    for (let parent = frame.parentFrame(); parent !== null; parent = parent.parentFrame()) count++
    return count
  }
  return page
    .frames()
    .filter((frame) => {
      const parent = frame.parentFrame()
      if (parent === null || frame.isDetached() || inheritsOrigin(frame.url())) return false
      const origin = originOf(frame.url())
      return origin === "null" || origin !== originOf(parent.url())
    })
    .sort((a, b) => depth(a) - depth(b))
}

const withTimeout = <A>(promise: Promise<A>): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the frame did not answer in time")), FRAME_TIMEOUT_MS)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    )
  })

/** The ref of the frame's element in its parent document's registry (the nearest window that has one). */
const frameElementRef = async (frame: Frame): Promise<string | null> => {
  const handle = await withTimeout(frame.frameElement())
  try {
    return await withTimeout(
      handle.evaluate((element: Element) => {
        const KEY = Symbol.for("browser-workflow-mcp")
        let view: any = element.ownerDocument.defaultView
        while (view !== null && view !== undefined) {
          let registry: any
          try {
            registry = view[KEY]
          } catch {
            registry = undefined
          }
          if (registry !== undefined) return (registry.byEl.get(element) as string | undefined) ?? null
          if (view.parent === view) return null
          view = view.parent
        }
        return null
      })
    )
  } finally {
    void handle.dispose().catch(() => undefined)
  }
}

/** The refs of the frame elements from the top document down to this frame, or null when one has none. */
const frameChain = async (frame: Frame): Promise<Array<string> | null> => {
  const chain: Array<string> = []
  for (let current: Frame | null = frame; current !== null && current.parentFrame() !== null; current = current.parentFrame()) {
    const ref = await frameElementRef(current)
    if (ref === null) return null
    chain.unshift(ref)
  }
  return chain
}

/** One frame's walk through the installed script (installed on first use, as in the top document). */
const walkFrame = async (frame: Frame, args: ObserveArgs): Promise<ObserveResult> => {
  const answer = await withTimeout(frame.evaluate<ObserveResult | { missing: true }>(installedCallExpression(args, null)))
  if ((answer as { missing?: boolean }).missing === true) return withTimeout(frame.evaluate<ObserveResult>(installedObserveExpression(args, null)))
  return answer as ObserveResult
}

/**
 * The top walk's result with the nodes of the page's cross-origin frames put under their frame's node:
 * deeper by the frame's depth, their path after the frame's. Frames that do not answer are left out;
 * the node limit holds for the whole tree. Only for whole-page tree walks (no root selector, no search).
 */
export const withSeparateFrames = async (page: Page, result: ObserveResult, args: ObserveArgs): Promise<ObserveResult> => {
  if (result.a11y === null || !args.wantA11y || args.rootSelector !== null || args.find !== undefined) return result
  const frames = separateFrames(page)
  if (frames.length === 0) return result
  const nodes: Array<RawNode> = [...result.a11y.nodes]
  let { truncated, unchanged } = result.a11y
  const removed = [...result.a11y.removed]
  let nextRef = result.nextRef
  for (const frame of frames) {
    const room = args.a11yLimit - nodes.length
    if (room <= 0) {
      truncated = true
      break
    }
    try {
      const ref = await frameElementRef(frame)
      // A frame whose element the walk did not give a ref (hidden, or past the cap) is not shown.
      if (ref === null) continue
      const walked = await walkFrame(frame, { ...args, nextRef, a11yLimit: room, wantTestIds: false, testIdLimit: 0 })
      nextRef = Math.max(nextRef, walked.nextRef)
      if (walked.a11y === null) continue
      const at = nodes.findIndex((node) => node.ref === ref)
      const anchor = at === -1 ? undefined : nodes[at]
      const depth = anchor === undefined ? 1 : (anchor.depth ?? 0) + 1
      const prefix = anchor === undefined ? ["iframe"] : [...(anchor.path ?? []), anchor.name !== "" ? `iframe: ${anchor.name}` : "iframe"]
      const inner = walked.a11y.nodes.map((node): RawNode => ({ ...node, depth: (node.depth ?? 0) + depth, path: [...prefix, ...(node.path ?? [])] }))
      // Right after the frame's node (it has no children of its own), else at the end (a changes-only walk left it out).
      let end = at === -1 ? nodes.length : at + 1
      while (at !== -1 && end < nodes.length && (nodes[end]!.depth ?? 0) >= depth) end++
      nodes.splice(end, 0, ...inner)
      truncated ||= walked.a11y.truncated
      unchanged += walked.a11y.unchanged
      removed.push(...walked.a11y.removed)
    } catch {
      continue
    }
  }
  return { ...result, nextRef, a11y: { nodes, truncated, unchanged, removed } }
}

/** A ref that is not in the top document's registry, looked for in the cross-origin frames: with the frame refs to reach it. */
export const refInSeparateFrames = async (page: Page, ref: string): Promise<RefCheck | undefined> => {
  for (const frame of separateFrames(page)) {
    try {
      const check = await withTimeout(frame.evaluate<RefCheck>(checkRefExpression(ref)))
      if (!check.exists) continue
      const chain = await frameChain(frame)
      if (chain === null) continue
      return { exists: true, current: [], frames: [...chain, ...check.frames] }
    } catch {
      continue
    }
  }
  return undefined
}
