// The guard of one action: the first trusted event of the action decides whether it reached the target;
// if not, it and the rest are stopped before the page sees them (see "Acting on an element" in
// docs/architecture.md). Kept beside the ref registry, under a symbol of its own.
import type { GuardVerdict } from "./types.js"

/** The trusted events a guard watches, by action. */
export const GUARDED_EVENTS = {
  click: ["pointerdown", "mousedown", "pointerup", "mouseup", "click"],
  type: ["keydown", "beforeinput", "input", "keyup"]
} as const

/**
 * Runs in the page: arms the guard of one action on `element`. The first trusted event of the
 * action, wherever it lands in the element's document or a document around it, decides: on the
 * element (or inside it) the action goes on untouched; anywhere else that event and every later one
 * are stopped and their default actions prevented, before the page's own listeners below the window
 * see them. The verdict is sent through the report binding at once (it outlives a document that the
 * action replaces) and kept for `finishGuard`. A click also notes navigations it starts.
 */
export const armGuard = (element: Element, token: string, report: string, events: ReadonlyArray<string>, watchNavigation: boolean): void => {
  const KEY = Symbol.for("browser-workflow-mcp/guard")
  const w = window as any
  w[KEY]?.stop()
  const frames: Array<Element> = []
  for (let doc = element.ownerDocument; doc !== document; ) {
    const frame = doc.defaultView?.frameElement
    if (!frame) break
    frames.push(frame)
    doc = frame.ownerDocument
  }
  const send: ((payload: string) => void) | undefined = report !== "" && typeof w[report] === "function" ? w[report] : undefined
  const guard = {
    token,
    first: undefined as boolean | undefined,
    navigating: false,
    downloading: false,
    destinations: [] as Array<string>,
    // Submissions the click caused whose navigation the browser has not started yet (it does so in a task of its own).
    submits: [] as Array<SubmitEvent>,
    // Clicks on file inputs during the action (a label's or the page's own count too): a chooser opens unless prevented.
    fileClicks: [] as Array<Event>,
    // The documents the action starts in, so that the caller can tell whether a navigation it started has committed.
    documents: frames.map((frame) => ({ frame, doc: (frame as HTMLIFrameElement).contentDocument })),
    stop: () => {}
  }
  const listener = (event: Event) => {
    // Page code dispatching its own events decides nothing.
    if (!event.isTrusted) return
    if (guard.first === undefined) {
      guard.first = event.composedPath().includes(element)
      try {
        send?.(`${token} ${guard.first ? "target" : "other"}`)
      } catch {
        // The verdict is still kept for finishGuard.
      }
    }
    if (guard.first) return
    event.stopImmediatePropagation()
    event.preventDefault()
  }
  // A navigation the action starts: the caller waits for it to commit, as Playwright's click does.
  const onNavigate = (event: any) => {
    // From here on the navigation itself says where it goes.
    guard.submits.length = 0
    // A download (a link with `download`, also a blob: or data: one the page's handler clicks) loads no document: the caller waits for it to start.
    if (typeof event.downloadRequest === "string" && !event.defaultPrevented) guard.downloading = true
    if (event.destination?.sameDocument !== false || event.downloadRequest || event.defaultPrevented) return
    // Where it goes: a navigation a router intercepts lands there at once, in the same document.
    guard.navigating = true
    guard.destinations.push(event.destination.url)
  }
  // Events stay in the document they happen in: listen in the element's frame and in every frame around it.
  const views: Array<Window> = [element.ownerDocument.defaultView!, ...frames.map((frame) => frame.ownerDocument.defaultView!)]
  const onSubmit = (event: Event) => {
    if (event.isTrusted) guard.submits.push(event as SubmitEvent)
  }
  const onClick = (event: Event) => {
    const target = event.target as Element | null
    if (target?.localName === "input" && (target as HTMLInputElement).type === "file") guard.fileClicks.push(event)
  }
  const timer = setTimeout(() => guard.stop(), 10_000)
  guard.stop = () => {
    for (const view of views) {
      for (const type of events) view.removeEventListener(type, listener, true)
      if (watchNavigation) {
        ;(view as any).navigation?.removeEventListener("navigate", onNavigate)
        view.removeEventListener("submit", onSubmit, true)
        view.removeEventListener("click", onClick, true)
      }
    }
    clearTimeout(timer)
  }
  for (const view of views) {
    for (const type of events) view.addEventListener(type, listener, true)
    if (watchNavigation) {
      ;(view as any).navigation?.addEventListener("navigate", onNavigate)
      view.addEventListener("submit", onSubmit, true)
      view.addEventListener("click", onClick, true)
    }
  }
  // Kept beside the ref registry, never in it: an action may come before any observation built the registry.
  Object.defineProperty(w, KEY, { value: guard, enumerable: false, configurable: true, writable: true })
}

/** Runs in the page after the input: removes the guard with `token` and says what it saw. */
export const finishGuard = (token: string): GuardVerdict => {
  const guard = (window as any)[Symbol.for("browser-workflow-mcp/guard")]
  if (!guard || guard.token !== token) return { seen: false, hit: false, navigating: false }
  guard.stop()
  // Intercepted by a router (or cancelled by the page): this document is already at the destination, or nothing moves.
  const here = location.href
  const pending = guard.navigating && !guard.destinations.every((url: string) => url === here) && !(window as any).navigation?.transition
  // A form the click submitted, which nothing prevented, loads its answer into this page once the browser gets to it.
  const submitting = guard.submits.some((event: SubmitEvent) => {
    if (event.defaultPrevented) return false
    const form = event.target as HTMLFormElement
    const submitter = event.submitter as HTMLButtonElement | HTMLInputElement | null
    const method = (submitter?.getAttribute("formmethod") ?? form.getAttribute("method") ?? "").toLowerCase()
    const target = submitter?.getAttribute("formtarget") ?? form.getAttribute("target") ?? form.ownerDocument.querySelector("base[target]")?.getAttribute("target") ?? ""
    return method !== "dialog" && /^(|_self|_parent|_top)$/i.test(target)
  })
  const choosing = guard.fileClicks.some((event: Event) => !event.defaultPrevented && !(event.target as HTMLInputElement).disabled)
  return {
    seen: guard.first !== undefined,
    hit: guard.first === true,
    navigating: pending || submitting,
    ...(guard.downloading ? { downloading: true } : {}),
    ...(choosing ? { choosing } : {})
  }
}

/** Runs in the page: whether every document the action with `token` started in is still the one shown. */
export const sameDocuments = (token: string): boolean => {
  const guard = (window as any)[Symbol.for("browser-workflow-mcp/guard")]
  if (!guard || guard.token !== token) return false
  return guard.documents.every((entry: { frame: HTMLIFrameElement; doc: Document | null }) => entry.frame.contentDocument === entry.doc)
}

