// Cross-origin iframes. Their documents live in another process (out-of-process frames), so the page's
// own walk sees only the frame element: each is walked through its own Playwright frame, its nodes go
// under the frame's node (with the frame in their path), and a ref inside one is found for actions.
// As in the top document, our scripts run in Playwright's utility world of each frame (where the ref
// selector engine looks), through a DevTools session of the frame's own; a cross-origin frame in the
// page's process has none, and its scripts run in its main world.
import type { CDPSession, Frame, Page } from "playwright"
import { ENTER_FRAME } from "../../../domain/frames.js"
import { describeExpression, describeInstallExpression, type DescribeAnswer, type DescribeArgs, type Described, type ElementFacts } from "../page-durable.js"
import {
  consoleText,
  devtoolsOf,
  evaluateInPage,
  evaluateToObject,
  floodCount,
  utilityWorldName,
  type RemoteValue
} from "../page-eval.js"
import {
  checkRefExpression,
  REF_ENGINE,
  installedCallExpression,
  installedObserveExpression,
  refsOfWalk,
  type FindLine,
  type ObserveArgs,
  type ObserveResult,
  type RawNode,
  type RawTestId,
  type RefCheck,
  walkInstallKey
} from "../page-script.js"
import { inBlock, type RefRanges, type RefSpaceService } from "../lifecycle/ref-space.js"

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

/**
 * An out-of-process frame's own DevTools session, its frame id and the contexts of Playwright's utility
 * world there (a world is per DevTools client: ours is found through Runtime events, never made).
 */
interface FrameChannel {
  readonly session: CDPSession
  readonly frameId: string
  readonly utility: Map<number, string | undefined>
}

const frameChannels = new WeakMap<Frame, Promise<FrameChannel | undefined>>()

const frameChannelOf = (page: Page, frame: Frame): Promise<FrameChannel | undefined> => {
  const known = frameChannels.get(frame)
  if (known !== undefined) return known
  const opened = (async (): Promise<FrameChannel | undefined> => {
    try {
      const world = await utilityWorldName(page)
      const session = await withTimeout(page.context().newCDPSession(frame))
      // A frame target's id is its frame's id.
      const { targetInfo } = await withTimeout(session.send("Target.getTargetInfo"))
      const channel: FrameChannel = { session, frameId: targetInfo.targetId, utility: new Map() }
      session.on("Runtime.executionContextCreated", ({ context }) => {
        const frameId = (context.auxData as { frameId?: string } | undefined)?.frameId
        if (context.name === world && frameId === channel.frameId) channel.utility.set(context.id, context.uniqueId)
      })
      session.on("Runtime.executionContextDestroyed", ({ executionContextId }) => channel.utility.delete(executionContextId))
      session.on("Runtime.executionContextsCleared", () => channel.utility.clear())
      await withTimeout(session.send("Runtime.enable"))
      return channel
    } catch {
      return undefined
    }
  })()
  frameChannels.set(frame, opened)
  const forget = () => {
    if (frameChannels.get(frame) === opened) frameChannels.delete(frame)
  }
  // A frame that went to another process, or closed, gets a fresh session next time.
  void opened.then((channel) => (channel === undefined ? forget() : channel.session.once("close", forget)), forget)
  return opened
}

/**
 * The unique id of Playwright's utility context in the frame's current document. Playwright makes that
 * world when it first needs it there: a query with the ref engine (which runs in it) asks for it.
 */
const utilityContext = async (frame: Frame, channel: FrameChannel): Promise<string> => {
  const known = () => [...channel.utility.values()].findLast((unique): unique is string => unique !== undefined)
  let unique = known()
  if (unique !== undefined) return unique
  await withTimeout(frame.locator(`${REF_ENGINE}=e0`).count())
  for (let waited = 0; unique === undefined && waited < FRAME_TIMEOUT_MS; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    unique = known()
  }
  if (unique === undefined) throw new Error("Playwright's utility world did not appear in the frame")
  return unique
}

/** The JSON value of `expression` in our world of the frame (its main world for a frame in the page's process). */
const evaluateInFrame = async <A>(page: Page, frame: Frame, expression: string): Promise<A> => {
  const world = await utilityWorldName(page)
  const channel = world === undefined ? undefined : await frameChannelOf(page, frame)
  if (world === undefined) return withTimeout(frame.evaluate<A>(expression))
  let reply: { readonly result: { readonly value?: unknown }; readonly exceptionDetails?: { readonly text: string; readonly exception?: { readonly description?: string } } }
  if (channel !== undefined) {
    const context = await utilityContext(frame, channel)
    reply = await withTimeout(channel.session.send("Runtime.evaluate", { expression, uniqueContextId: context, returnByValue: true, awaitPromise: true }))
  } else {
    // In the page's process: the world by name in that frame, through the page's session.
    const frameId = await inProcessFrameId(page, frame)
    if (frameId === undefined) return withTimeout(frame.evaluate<A>(expression))
    const session = await devtoolsOf(page)
    const { executionContextId } = await withTimeout(session.send("Page.createIsolatedWorld", { frameId, worldName: world, grantUniveralAccess: true }))
    reply = await withTimeout(session.send("Runtime.evaluate", { expression, contextId: executionContextId, returnByValue: true, awaitPromise: true }))
  }
  if (reply.exceptionDetails !== undefined) {
    throw new Error(`frame script failed: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`)
  }
  return reply.result.value as A
}

const FRAME_ELEMENTS = "iframe, frame"

/**
 * The ref of the frame's element in the registry of the document that walked it: the nearest separate
 * frame above it, or the top document (same-origin frames between are walked with their parent). The
 * element is found by its place among the frame elements of each document on the way, read in the
 * page's world (the DOM is the same in every world), and looked up in our world of that document.
 */
const frameElementRef = async (page: Page, frame: Frame): Promise<string | null> => (await frameElementOf(page, frame))?.ref ?? null

/** The frame element's ref (see frameElementRef) and what names it: its title, aria-label or name attribute. */
const frameElementOf = async (page: Page, frame: Frame): Promise<{ readonly ref: string; readonly name: string } | null> => {
  const place = await framePlace(frame)
  if (place === undefined) return null
  const expression = `(() => {
    const element = ${frameElementExpression(place.path)}
    const registry = globalThis[Symbol.for("browser-workflow-mcp")]
    const ref = (element && registry && registry.byEl.get(element)) ?? null
    if (ref === null) return null
    const whole = (element.getAttribute("title") || element.getAttribute("aria-label") || element.getAttribute("name") || "").trim()
    // A cut ends in "…": the answer's redaction knows a secret's beginning left before it.
    const name = whole.length > 150 ? whole.slice(0, 149) + "…" : whole
    return { ref, name }
  })()`
  return place.root === page.mainFrame()
    ? withTimeout(evaluateInPage<{ ref: string; name: string } | null>(page, expression))
    : evaluateInFrame<{ ref: string; name: string } | null>(page, place.root, expression)
}

/** An expression for the frame element at `path` (places among frame elements, document by document), or null. */
const frameElementExpression = (path: ReadonlyArray<number>) => `(() => {
    const path = ${JSON.stringify(path)}
    const selector = ${JSON.stringify(FRAME_ELEMENTS)}
    let document = globalThis.document
    for (let i = 0; i < path.length - 1; i++) {
      document = document.querySelectorAll(selector)[path[i]]?.contentDocument
      if (!document) return null
    }
    return document.querySelectorAll(selector)[path[path.length - 1]] ?? null
  })()`

/** Where the frame's element is: the frame whose document (or a same-origin frame under it) holds it, and its path from there. */
const framePlace = async (frame: Frame): Promise<{ readonly root: Frame; readonly path: ReadonlyArray<number> } | undefined> => {
  const handle = await withTimeout(frame.frameElement())
  let path: Array<number>
  try {
    path = await withTimeout(
      handle.evaluate((element: Element, selector: string) => {
        const places: Array<number> = []
        let current: Element | null = element
        while (current !== null) {
          const owning: Document = current.ownerDocument
          places.unshift(Array.prototype.indexOf.call(owning.querySelectorAll(selector), current))
          let owner: Element | null
          try {
            owner = owning.defaultView?.frameElement ?? null
          } catch {
            owner = null
          }
          current = owner
        }
        return places
      }, FRAME_ELEMENTS)
    )
  } finally {
    void handle.dispose().catch(() => undefined)
  }
  if (path.includes(-1)) return undefined
  let root = frame.parentFrame()
  for (let step = 1; step < path.length && root !== null; step++) root = root.parentFrame()
  return root === null ? undefined : { root, path }
}

/**
 * The DevTools id of a frame in the page's process whose element is in the top document (or a
 * same-origin frame under it): its owner element's content frame as DevTools describes it.
 */
const inProcessFrameId = async (page: Page, frame: Frame): Promise<string | undefined> => {
  const place = await framePlace(frame)
  if (place === undefined || place.root !== page.mainFrame()) return undefined
  const object = await withTimeout(evaluateToObject(page, frameElementExpression(place.path)))
  if (object.objectId === undefined) return undefined
  const session = await devtoolsOf(page)
  try {
    const { node } = await withTimeout(session.send("DOM.describeNode", { objectId: object.objectId }))
    return node.frameId
  } finally {
    void session.send("Runtime.releaseObject", { objectId: object.objectId }).catch(() => undefined)
  }
}

/** The refs of the frame elements from the top document down to this frame, or null when one has none. */
const frameChain = async (page: Page, frame: Frame): Promise<Array<string> | null> => {
  const chain: Array<string> = []
  for (let current: Frame | null = frame; current !== null && current.parentFrame() !== null; current = current.parentFrame()) {
    const ref = await frameElementRef(page, current)
    if (ref === null) return null
    chain.unshift(ref)
  }
  return chain
}

/** One frame's walk through the installed script (installed on first use, as in the top document). */
const walkFrame = async (page: Page, frame: Frame, args: ObserveArgs): Promise<ObserveResult> => {
  const answer = await evaluateInFrame<ObserveResult | { missing: true }>(page, frame, installedCallExpression(args, null))
  if ((answer as { missing?: boolean }).missing === true) return evaluateInFrame<ObserveResult>(page, frame, installedObserveExpression(args, null))
  return answer as ObserveResult
}

/**
 * The top walk's result with what the page's cross-origin frames hold, each walked once in its own
 * document with the same arguments: a tree's nodes go under the frame's node (deeper by the frame's
 * depth, their path after the frame's), a search's matches after the top's under a line for the frame
 * (the limit holds for all, the total counts every match), test ids after the top's with the frame's
 * name. Frames that do not answer are left out; the node limit holds for the whole tree. Not for a
 * walk scoped to a root selector (it names an element of the top document).
 */
export const withSeparateFrames = async (
  page: Page,
  result: ObserveResult,
  args: ObserveArgs,
  refs: RefSpaceService,
  taken: RefRanges
): Promise<ObserveResult> => {
  if (args.rootSelector !== null) return result
  const search = args.find !== undefined && result.found !== undefined ? args.find : undefined
  const wantTree = result.a11y !== null && args.wantA11y && search === undefined
  const wantTestIds = result.testIds !== null && args.wantTestIds
  if (!wantTree && search === undefined && !wantTestIds) return result
  const frames = separateFrames(page)
  if (frames.length === 0) return result
  const nodes: Array<RawNode> = [...(result.a11y?.nodes ?? [])]
  let truncated = result.a11y?.truncated ?? false
  let unchanged = result.a11y?.unchanged ?? 0
  const removed = [...(result.a11y?.removed ?? [])]
  const lines: Array<FindLine> = [...(result.found?.lines ?? [])]
  let total = result.found?.total ?? 0
  let shown = lines.filter((line) => line.match === true).length
  const testIds: Array<RawTestId> = [...(result.testIds ?? [])]
  let testIdsUnchanged = result.testIdsUnchanged
  let nextRef = result.nextRef
  for (const frame of frames) {
    const room = args.a11yLimit - nodes.length
    if (wantTree && room <= 0) truncated = true
    const treeHere = wantTree && room > 0
    const testIdRoom = wantTestIds ? args.testIdLimit - testIds.length : 0
    if (!treeHere && search === undefined && testIdRoom <= 0) continue
    try {
      const owner = await frameElementOf(page, frame)
      // A frame whose element the walk did not give a ref (hidden, or past the cap) is not shown.
      if (owner === null) continue
      const frameArgs: ObserveArgs = {
        ...args,
        wantA11y: treeHere,
        a11yLimit: treeHere ? room : 0,
        wantTestIds: testIdRoom > 0,
        testIdLimit: Math.max(0, testIdRoom),
        // A search shows at most what is left of the limit; a frame past it still counts its matches.
        find: search === undefined ? undefined : { ...search, limit: Math.max(1, search.limit - shown) }
      }
      // Each frame's walk numbers within a block of the server's ref space of its own (a frame that does not answer keeps it).
      const walked = await inBlock(refs, refsOfWalk(frameArgs), taken, (block) => walkFrame(page, frame, { ...frameArgs, nextRef: block.start, refEnd: block.end }))
      nextRef = Math.max(nextRef, walked.nextRef)
      if (walked.testIds !== null) {
        testIds.push(...walked.testIds.slice(0, Math.max(0, testIdRoom)).map((item) => (owner.name === "" ? item : { ...item, frame: owner.name })))
        testIdsUnchanged += walked.testIdsUnchanged
      }
      if (search !== undefined && walked.found !== undefined && walked.found.total > 0) {
        total += walked.found.total
        if (shown < search.limit) {
          const base = Math.min(...walked.found.lines.map((line) => line.depth))
          lines.push({ depth: 0, node: { ref: owner.ref, role: "iframe", name: owner.name } })
          for (const line of walked.found.lines) lines.push({ ...line, depth: line.depth - base + 1 })
          shown += walked.found.lines.filter((line) => line.match === true).length
        }
      }
      if (treeHere && walked.a11y !== null) {
        const at = nodes.findIndex((node) => node.ref === owner.ref)
        const anchor = at === -1 ? undefined : nodes[at]
        const depth = anchor === undefined ? 1 : (anchor.depth ?? 0) + 1
        const prefix = anchor === undefined ? ["iframe"] : [...(anchor.path ?? []), anchor.name !== "" ? `iframe: ${anchor.name}` : "iframe"]
        // Changes-only: the frame's own top nodes are under the frame's node when this answer shows it.
        const under = args.changesOnly && anchor !== undefined ? { under: anchor.ref } : {}
        const inner = walked.a11y.nodes.map(
          (node): RawNode => ({ ...under, ...node, depth: (node.depth ?? 0) + depth, path: [...prefix, ...(node.path ?? [])] })
        )
        // Right after the frame's node (it has no children of its own), else at the end (a changes-only walk left it out).
        let end = at === -1 ? nodes.length : at + 1
        while (at !== -1 && end < nodes.length && (nodes[end]!.depth ?? 0) >= depth) end++
        nodes.splice(end, 0, ...inner)
        truncated ||= walked.a11y.truncated
        unchanged += walked.a11y.unchanged
        removed.push(...walked.a11y.removed)
      }
    } catch {
      continue
    }
  }
  return {
    ...result,
    nextRef,
    ...(wantTree ? { a11y: { nodes, truncated, unchanged, removed } } : {}),
    ...(search !== undefined ? { found: { lines, total } } : {}),
    ...(wantTestIds ? { testIds, testIdsUnchanged } : {})
  }
}

/**
 * A ref that is not in the top document's registry, looked for in the cross-origin frames: with the frame
 * refs to reach it; else not there, with the refs those frames hold (for the wrong-ref answer).
 */
export const refInSeparateFrames = async (page: Page, ref: string): Promise<RefCheck> => {
  const current: Array<RefCheck["current"][number]> = []
  for (const frame of separateFrames(page)) {
    try {
      const check = await evaluateInFrame<RefCheck>(page, frame, checkRefExpression(ref))
      if (!check.exists) {
        current.push(...check.current)
        continue
      }
      const chain = await frameChain(page, frame)
      if (chain === null) continue
      return { exists: true, current: [], frames: [...chain, ...check.frames] }
    } catch {
      continue
    }
  }
  return { exists: false, current, frames: [] }
}

/**
 * For a selector (a test id's) that matches nothing in the top document: the frame refs down to the
 * first cross-origin frame where it matches, or undefined (no such frame, or the top document has it:
 * the top document comes first, as for Playwright's own locators).
 */
export const selectorInSeparateFrames = async (page: Page, selector: string): Promise<ReadonlyArray<string> | undefined> => {
  const frames = separateFrames(page)
  if (frames.length === 0) return undefined
  if ((await withTimeout(page.locator(selector).count())) > 0) return undefined
  for (const frame of frames) {
    try {
      if ((await withTimeout(frame.locator(selector).count())) === 0) continue
      const chain = await frameChain(page, frame)
      if (chain !== null) return chain
    } catch {
      continue
    }
  }
  return undefined
}

/** What the page's describe says of a ref its registry does not hold. */
export const REF_NOT_ON_PAGE = "the ref is not on the page"

/** The describe function's answer in a frame's document (the top one: the main frame), installing it there first if needed. */
const describeIn = async (page: Page, frame: Frame, args: DescribeArgs): Promise<Described> => {
  const evaluate = <A>(expression: string) =>
    frame === page.mainFrame() ? withTimeout(evaluateInPage<A>(page, expression)) : evaluateInFrame<A>(page, frame, expression)
  const answer = await evaluate<DescribeAnswer>(describeExpression(args, walkInstallKey()))
  return "missing" in answer ? evaluate<Described>(describeInstallExpression(args, walkInstallKey())) : answer
}

/**
 * A selector that names the frame's element from the top document: the selector of its element in the
 * document that holds it, after the way into that document when it is another cross-origin frame's.
 */
const frameSelector = async (page: Page, frame: Frame, args: DescribeArgs): Promise<string | undefined> => {
  const place = await framePlace(frame)
  const ref = await frameElementRef(page, frame)
  if (place === undefined || ref === null) return undefined
  const described = await describeIn(page, place.root, { ...args, locator: { kind: "a11yRef", value: ref }, within: null })
  if (!described.found || described.element.selector === undefined || !described.element.unique.includes("selector")) return undefined
  const own = described.element.frame === undefined ? described.element.selector : described.element.frame + ENTER_FRAME + described.element.selector
  if (place.root === page.mainFrame()) return own
  const above = await frameSelector(page, place.root, args)
  return above === undefined ? undefined : above + ENTER_FRAME + own
}

/**
 * The durable forms of a ref target the top document does not hold, described in the cross-origin frame
 * whose registry has it (as the top document describes its own elements), its `frame` naming the way in
 * from the top document; undefined when no frame has it or no selector names a frame on the way alone.
 */
export const describeInSeparateFrames = async (page: Page, args: DescribeArgs): Promise<ElementFacts | undefined> => {
  for (const frame of separateFrames(page)) {
    const described = await describeIn(page, frame, args).catch((): Described => ({ found: false, why: "the frame did not answer" }))
    if (!described.found) {
      if (described.why === REF_NOT_ON_PAGE || described.why === "the frame did not answer") continue
      return undefined
    }
    const way = await frameSelector(page, frame, args).catch(() => undefined)
    if (way === undefined) return undefined
    const { frame: inner, ...element } = described.element
    return { ...element, frame: inner === undefined ? way : way + ENTER_FRAME + inner }
  }
  return undefined
}

export interface FrameConsoleWatch {
  /** A console call of a cross-origin frame's document: its type, its text, the frame's origin. */
  readonly onMessage: (type: string, text: string, origin: string) => void
  /** The frame's document floods its console: nothing more of it is reported until the frame navigates. */
  readonly onFlood: (origin: string) => void
}

/** How often a frame's console arguments are let go in the frame (they are held until released). */
const FRAME_RELEASE_EVERY_MS = 500

/**
 * Streams the console of the page's out-of-process frames to `watch`. The page's own DevTools session
 * hears only the frames in its process; each out-of-process frame is heard through its own session (the
 * one its walks use), opened when the frame navigates; enabling its Runtime domain also reports what the
 * document logged before. Uncaught errors need nothing: Playwright's pageerror covers every frame.
 */
export const watchFrameConsoles = (page: Page, watch: FrameConsoleWatch): void => {
  const heard = new WeakSet<CDPSession>()
  const listen = (session: CDPSession, frame: Frame) => {
    const origin = originOf(frame.url())
    let release: ReturnType<typeof setTimeout> | undefined
    const flood = floodCount()
    session.on("Runtime.consoleAPICalled", (event) => {
      const verdict = flood.seen(Date.now())
      if (verdict === "muted") return
      if (verdict === "flood") {
        watch.onFlood(origin)
        return
      }
      watch.onMessage(event.type, consoleText(event.args as ReadonlyArray<RemoteValue>), origin)
      if (release === undefined) {
        release = setTimeout(() => {
          release = undefined
          session.send("Runtime.releaseObjectGroup", { objectGroup: "console" }).catch(() => undefined)
        }, FRAME_RELEASE_EVERY_MS)
        release.unref()
      }
    })
    const onNavigated = (navigated: Frame) => {
      if (navigated !== frame) return
      flood.reset()
    }
    page.on("framenavigated", onNavigated)
    session.once("close", () => {
      clearTimeout(release)
      page.off("framenavigated", onNavigated)
    })
  }
  const watchFrame = (frame: Frame) => {
    const parent = frame.parentFrame()
    // Only a frame of another origin than its parent can be out of process.
    if (parent === null || frame.isDetached() || inheritsOrigin(frame.url()) || originOf(frame.url()) === originOf(parent.url())) return
    void frameChannelOf(page, frame).then((channel) => {
      if (channel === undefined || heard.has(channel.session)) return
      heard.add(channel.session)
      listen(channel.session, frame)
    })
  }
  page.on("framenavigated", watchFrame)
}
