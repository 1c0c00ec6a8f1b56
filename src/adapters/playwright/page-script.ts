// Code that runs inside the page (serialized by Playwright): one walk of the DOM gives state, visible
// test ids and accessibility nodes, and binds each node's ref to its element in a page-side registry.
// Everything here must be self-contained: no imports, no helpers from outside the function bodies.

export interface ScreenRule {
  readonly screen: string
  readonly testId?: string | undefined
  readonly selector?: string | undefined
  readonly urlPattern?: string | undefined
}

export interface ObserveArgs {
  readonly nextRef: number
  readonly testIdAttribute: string
  readonly testIdLimit: number
  readonly a11yLimit: number
  readonly rootSelector: string | null
  readonly screenRules: ReadonlyArray<ScreenRule>
  readonly wantTestIds: boolean
  readonly wantA11y: boolean
  /**
   * Report only nodes and test ids that are new or changed since this page last reported them;
   * the rest are counted (their refs stay valid) and refs that left are listed.
   */
  readonly changesOnly: boolean
}

export interface RawNode {
  ref: string
  role: string
  name: string
  disabled?: boolean
  checked?: boolean | "mixed"
  expanded?: boolean
  level?: number
  path?: Array<string>
}

export interface RawTestId {
  testId: string
  tag: string
  text?: string
  visible: boolean
}

export interface ObserveResult {
  url: string
  title: string
  readyState: string
  screen: string
  rootFound: boolean
  testIds: Array<RawTestId> | null
  testIdsUnchanged: number
  a11y: { nodes: Array<RawNode>; truncated: boolean; unchanged: number; removed: Array<string> } | null
  nextRef: number
}

export interface RefCheck {
  exists: boolean
  current: Array<{ ref: string; role: string; name: string }>
  /** Refs of the same-origin iframes around the element, outermost first. */
  frames: Array<string>
}

/** Arguments of `observePage` that read only the page's state: no test ids, no accessibility nodes, no refs. */
export const stateReadArgs = (
  nextRef: number,
  settings: { readonly testIdAttribute: string; readonly screenRules: ReadonlyArray<ScreenRule> }
): ObserveArgs => ({
  nextRef,
  testIdAttribute: settings.testIdAttribute,
  testIdLimit: 0,
  a11yLimit: 0,
  rootSelector: null,
  screenRules: settings.screenRules,
  wantTestIds: false,
  wantA11y: false,
  changesOnly: false
})

/** Name of the custom selector engine that resolves a ref to exactly its element. */
export const REF_ENGINE = "bwmref"

/** Selector engine registered with Playwright; runs in the page's main world next to the registry. */
export const refSelectorEngine = () => {
  const find = (root: Node, body: string): Element | null => {
    const KEY = Symbol.for("browser-workflow-mcp")
    // Inside a same-origin iframe the registry is the top page's.
    let registry = (window as any)[KEY]
    if (registry === undefined) {
      try {
        registry = (window.top as any)?.[KEY]
      } catch {
        registry = undefined
      }
    }
    const element: Element | undefined = registry?.byRef.get(body)
    if (!element || !element.isConnected || element.ownerDocument.defaultView === null) return null
    // Accept the element only when it lies inside root, crossing shadow boundaries upwards.
    let node: Node | null = element
    while (node) {
      if (node === root) return element
      node = node.parentNode ?? ((node as ShadowRoot).host as Node | undefined) ?? null
    }
    return null
  }
  return {
    query: (root: Node, body: string) => find(root, body),
    queryAll: (root: Node, body: string) => {
      const element = find(root, body)
      return element ? [element] : []
    }
  }
}

/**
 * Runs in the page: the element is connected and in a frame that is still in the page (a removed
 * iframe's elements stay connected to its old document). Passed to the page scripts that need it.
 */
export const isLiveElement = (element: Element): boolean => {
  let doc: Document | null = element.isConnected ? element.ownerDocument : null
  while (doc !== null && doc !== document) {
    const frame: Element | null | undefined = doc.defaultView?.frameElement
    doc = frame && frame.isConnected ? frame.ownerDocument : null
  }
  return doc === document
}

/** The expression that runs `observePage` in the page. */
export const observeExpression = (args: ObserveArgs): string =>
  `(${observePage.toString()})(${JSON.stringify(args)}, ${isLiveElement.toString()})`

/** The expression that runs `checkRef` in the page. */
export const checkRefExpression = (ref: string): string =>
  `(${checkRef.toString()})(${JSON.stringify(ref)}, ${isLiveElement.toString()})`

/** One walk: page state, screen by rules, test ids and accessibility nodes with refs. */
export const observePage = (args: ObserveArgs, isLive: (element: Element) => boolean): ObserveResult => {
  const KEY = Symbol.for("browser-workflow-mcp")
  const w = window as any
  const registry: {
    byRef: Map<string, Element>
    byEl: WeakMap<Element, string>
    info: Map<string, { role: string; name: string }>
    /** What the agent was last told about each ref (a signature of the node), for changes-only observations. */
    reported: Map<string, string>
    /**
     * Nodes a changes-only walk saw past its output limit: left out of that observation (it said
     * truncated), so they are not news in the next one unless they change.
     */
    passed: Map<string, string>
    reportedTestIds: WeakMap<Element, string>
  } =
    w[KEY] ??
    (w[KEY] = {
      byRef: new Map(),
      byEl: new WeakMap(),
      info: new Map(),
      reported: new Map(),
      passed: new Map(),
      reportedTestIds: new WeakMap()
    })
  Object.defineProperty(w, KEY, { enumerable: false })

  // Drop refs whose elements left the page, so stale refs are recognised and memory stays bounded.
  for (const [ref, element] of registry.byRef) {
    if (!isLive(element)) {
      registry.byRef.delete(ref)
      registry.info.delete(ref)
      registry.passed.delete(ref)
    }
  }

  const isVisible = (element: Element): boolean => {
    const anyElement = element as any
    if (typeof anyElement.checkVisibility === "function") {
      if (!anyElement.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true })) return false
    }
    const rect = element.getBoundingClientRect()
    return rect.width > 0 || rect.height > 0
  }

  const normalize = (text: string | null | undefined, max = 100): string => {
    const collapsed = (text ?? "").replace(/\s+/g, " ").trim()
    return collapsed.length > max ? collapsed.slice(0, max - 1) + "…" : collapsed
  }

  const cssAttr = (name: string, value: string) => `[${name}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`

  const detectScreen = (): string => {
    for (const rule of args.screenRules) {
      try {
        if (rule.urlPattern !== undefined && !new RegExp(rule.urlPattern).test(location.href)) continue
        if (rule.testId !== undefined) {
          const match = document.querySelector(cssAttr(args.testIdAttribute, rule.testId))
          if (!match || !isVisible(match)) continue
        }
        if (rule.selector !== undefined) {
          const match = document.querySelector(rule.selector)
          if (!match || !isVisible(match)) continue
        }
        return rule.screen
      } catch {
        continue
      }
    }
    return "unknown"
  }

  let root: Element | null = document.documentElement
  let rootFound = true
  if (args.rootSelector !== null) {
    try {
      root = document.querySelector(args.rootSelector)
    } catch {
      root = null
    }
    rootFound = root !== null
  }

  let testIds: Array<RawTestId> | null = null
  let testIdsUnchanged = 0
  if (args.wantTestIds) {
    testIds = []
    if (root) {
      const all = root.querySelectorAll(`[${args.testIdAttribute}]`)
      for (let i = 0; i < all.length && testIds.length < args.testIdLimit; i++) {
        const element = all[i]!
        if (!isVisible(element)) continue
        const tag = element.localName
        const isField = tag === "input" || tag === "textarea" || tag === "select"
        const text = isField ? "" : normalize(element.textContent)
        const item: RawTestId = { testId: element.getAttribute(args.testIdAttribute) ?? "", tag, visible: true }
        if (text !== "") item.text = text
        const signature = `${item.testId}|${tag}|${text}`
        if (args.changesOnly && registry.reportedTestIds.get(element) === signature) {
          testIdsUnchanged++
          continue
        }
        registry.reportedTestIds.set(element, signature)
        testIds.push(item)
      }
    }
  }

  let nextRef = args.nextRef
  let a11y: ObserveResult["a11y"] = null

  if (args.wantA11y) {
    const nodes: Array<RawNode> = []
    let truncated = false
    let unchanged = 0
    // In changes-only mode the walk goes past the output limit to tell unchanged from removed, up to a cap.
    const WALK_CAP = 5_000
    let visited = 0
    let walkCut = false
    const seen = new Set<string>()
    const signatureOf = (node: RawNode) =>
      `${node.role}|${node.name}|${node.disabled ?? ""}|${node.checked ?? ""}|${node.expanded ?? ""}|${node.level ?? ""}|${(node.path ?? []).join("/")}`
    const INPUT_ROLES: Record<string, string> = {
      button: "button", submit: "button", reset: "button", image: "button",
      checkbox: "checkbox", radio: "radio", range: "slider", number: "spinbutton",
      text: "textbox", email: "textbox", password: "textbox", tel: "textbox", url: "textbox",
      search: "searchbox", "": "textbox"
    }
    const KEPT = new Set([
      "button", "link", "checkbox", "radio", "switch", "textbox", "searchbox", "combobox", "slider", "spinbutton",
      "menuitem", "menuitemcheckbox", "menuitemradio", "option", "tab", "treeitem",
      "dialog", "alertdialog", "alert", "status", "heading", "menu", "listbox", "tabpanel", "img"
    ])
    const CONTAINERS = new Set(["dialog", "alertdialog", "menu", "listbox", "tabpanel", "form", "navigation", "region"])
    const NAME_FROM_CONTENT = new Set([
      "button", "link", "checkbox", "radio", "switch", "menuitem", "menuitemcheckbox", "menuitemradio",
      "option", "tab", "treeitem", "heading", "status", "alert"
    ])
    const SKIP_TAGS = new Set(["script", "style", "template", "noscript", "head", "meta", "link"])

    const roleOf = (element: Element): string | null => {
      const explicit = element.getAttribute("role")
      if (explicit) {
        const first = explicit.trim().split(/\s+/)[0]
        if (first && first !== "none" && first !== "presentation") return first
      }
      const tag = element.localName
      switch (tag) {
        case "a":
        case "area":
          return element.hasAttribute("href") ? "link" : null
        case "button":
          return "button"
        case "summary":
          return "button"
        case "input": {
          const type = (element.getAttribute("type") ?? "").toLowerCase()
          if (type === "hidden" || type === "file" || type === "color" || type === "date") return type === "hidden" ? null : "textbox"
          if (element.hasAttribute("list") && (type === "" || type === "text" || type === "search")) return "combobox"
          return INPUT_ROLES[type] ?? "textbox"
        }
        case "textarea":
          return "textbox"
        case "select":
          return (element as HTMLSelectElement).multiple || (element as HTMLSelectElement).size > 1 ? "listbox" : "combobox"
        case "option":
          return "option"
        case "h1": case "h2": case "h3": case "h4": case "h5": case "h6":
          return "heading"
        case "dialog":
          return "dialog"
        case "img":
          return element.getAttribute("alt") === "" ? null : "img"
        case "form":
          return "form"
        case "nav":
          return "navigation"
        case "section":
          return element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby") ? "region" : null
        case "output":
          return "status"
        default:
          if ((element as HTMLElement).isContentEditable && element.getAttribute("contenteditable") !== null) return "textbox"
          return null
      }
    }

    const textOfIds = (element: Element, ids: string): string => {
      const scope = element.getRootNode() as Document | ShadowRoot
      return ids
        .split(/\s+/)
        .map((id) => (scope.getElementById?.(id) ?? element.ownerDocument.getElementById(id))?.textContent ?? "")
        .join(" ")
    }

    // Chromium drops its cached `labels` lists whenever the DOM changes, and rebuilding one walks the
    // whole document: after an action that is a document walk per field. One pass over the labels of
    // each root (document or shadow root) per observation gives the same texts, in the same order.
    const labelsByRoot = new Map<Node, Map<Element, Array<string>>>()
    const labelTextOf = (field: Element): string => {
      const rootNode = field.getRootNode()
      let byControl = labelsByRoot.get(rootNode)
      if (byControl === undefined) {
        byControl = new Map()
        for (const label of (rootNode as Document | ShadowRoot).querySelectorAll("label")) {
          const control = (label as HTMLLabelElement).control
          if (control === null) continue
          const texts = byControl.get(control) ?? []
          texts.push(label.textContent ?? "")
          byControl.set(control, texts)
        }
        labelsByRoot.set(rootNode, byControl)
      }
      return (byControl.get(field) ?? []).join(" ")
    }

    const nameOf = (element: Element, role: string): string => {
      const labelledBy = element.getAttribute("aria-labelledby")
      if (labelledBy) {
        const text = normalize(textOfIds(element, labelledBy))
        if (text) return text
      }
      const label = element.getAttribute("aria-label")
      if (label && label.trim()) return normalize(label)
      const tag = element.localName
      if (tag === "input" || tag === "textarea" || tag === "select") {
        const input = element as HTMLInputElement
        const type = (input.getAttribute("type") ?? "").toLowerCase()
        if (type === "submit" || type === "reset" || type === "button") {
          return normalize(input.value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : ""))
        }
        if (type === "image") return normalize(input.getAttribute("alt") ?? input.value)
        const text = normalize(labelTextOf(input))
        if (text) return text
        return normalize(element.getAttribute("title") ?? element.getAttribute("placeholder"))
      }
      if (tag === "img") return normalize(element.getAttribute("alt") ?? element.getAttribute("title"))
      if (NAME_FROM_CONTENT.has(role)) {
        const text = normalize(element.textContent)
        if (text) return text
      }
      if (role === "dialog" || role === "alertdialog") {
        const heading = element.querySelector("h1,h2,h3,h4,h5,h6,[role=heading]")
        if (heading) return normalize(heading.textContent)
      }
      return normalize(element.getAttribute("title"))
    }

    const refFor = (element: Element): string => {
      let ref = registry.byEl.get(element)
      if (ref === undefined || registry.byRef.get(ref) !== element) {
        ref = `e${nextRef++}`
        registry.byEl.set(element, ref)
        registry.byRef.set(ref, element)
      }
      return ref
    }

    const describe = (element: Element, role: string, path: Array<string>): RawNode => {
      const name = nameOf(element, role)
      const ref = refFor(element)
      registry.info.set(ref, { role, name })
      const node: RawNode = { ref, role, name }
      const anyElement = element as any
      if (anyElement.disabled === true || element.getAttribute("aria-disabled") === "true") node.disabled = true
      const ariaChecked = element.getAttribute("aria-checked")
      if (role === "checkbox" || role === "radio" || role === "switch" || role.startsWith("menuitem")) {
        if (ariaChecked === "mixed") node.checked = "mixed"
        else if (ariaChecked !== null) node.checked = ariaChecked === "true"
        else if (typeof anyElement.checked === "boolean") node.checked = anyElement.checked
      }
      const expanded = element.getAttribute("aria-expanded")
      if (expanded !== null) node.expanded = expanded === "true"
      else if (element.localName === "details") node.expanded = (element as HTMLDetailsElement).open
      if (role === "heading") {
        const level = Number(element.getAttribute("aria-level") ?? element.localName.slice(1))
        if (Number.isFinite(level) && level > 0) node.level = level
      }
      if (path.length > 0) node.path = path.slice()
      return node
    }

    const walk = (parent: Element | ShadowRoot, path: Array<string>): boolean => {
      for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
        if (SKIP_TAGS.has(child.localName)) continue
        if (child.getAttribute("aria-hidden") === "true" || child.hasAttribute("hidden") || child.hasAttribute("inert")) continue
        const role = roleOf(child)
        let pushed = false
        if (role !== null && (KEPT.has(role) || CONTAINERS.has(role))) {
          if (isVisible(child)) {
            if (KEPT.has(role)) {
              if (!args.changesOnly) {
                if (nodes.length >= args.a11yLimit) {
                  truncated = true
                  return false
                }
                const node = describe(child, role, path)
                registry.reported.set(node.ref, signatureOf(node))
                nodes.push(node)
              } else {
                const node = describe(child, role, path)
                const signature = signatureOf(node)
                seen.add(node.ref)
                if (registry.reported.get(node.ref) === signature || registry.passed.get(node.ref) === signature) unchanged++
                else if (nodes.length < args.a11yLimit) {
                  registry.reported.set(node.ref, signature)
                  registry.passed.delete(node.ref)
                  nodes.push(node)
                } else {
                  registry.passed.set(node.ref, signature)
                  truncated = true
                }
                if (++visited >= WALK_CAP) {
                  truncated = true
                  walkCut = true
                  return false
                }
              }
            }
            if (CONTAINERS.has(role)) {
              const name = nameOf(child, role)
              path.push(name ? `${role}: ${name}` : role)
              pushed = true
            }
          }
        }
        const shadow = (child as HTMLElement).shadowRoot
        let keepGoing = (shadow ? walk(shadow, path) : true) && walk(child, path)
        if (keepGoing && (child.localName === "iframe" || child.localName === "frame")) keepGoing = walkFrame(child as HTMLIFrameElement, path)
        if (pushed) path.pop()
        if (!keepGoing) return false
      }
      return true
    }

    /** A same-origin frame's document is walked as part of the page; its nodes carry "iframe: name" in their path. */
    const walkFrame = (frame: HTMLIFrameElement, path: Array<string>): boolean => {
      let inner: Document | null = null
      try {
        inner = frame.contentDocument
      } catch {
        inner = null
      }
      if (inner === null || inner.documentElement === null || !isVisible(frame)) return true
      const name = normalize(frame.getAttribute("title") || frame.getAttribute("name") || inner.title)
      // The frame element gets a ref too, so that the server can enter the frame by ref.
      registry.info.set(refFor(frame), { role: "iframe", name })
      path.push(name ? `iframe: ${name}` : "iframe")
      const keepGoing = walk(inner.documentElement, path)
      path.pop()
      return keepGoing
    }

    if (root) {
      const rootRole = roleOf(root)
      if (args.rootSelector !== null && rootRole !== null && KEPT.has(rootRole) && isVisible(root)) {
        nodes.push(describe(root, rootRole, []))
      }
      walk(root, [])
    }
    const removed: Array<string> = []
    if (args.changesOnly) {
      // A ref the agent was told about and that is gone (or, after a full walk, no longer shown).
      for (const ref of registry.reported.keys()) {
        const element = registry.byRef.get(ref)
        const gone = element === undefined || !isLive(element) || (!walkCut && !seen.has(ref))
        if (gone) {
          removed.push(ref)
          registry.reported.delete(ref)
        }
      }
    }
    a11y = { nodes, truncated, unchanged, removed }
  }

  return {
    url: location.href,
    title: document.title,
    readyState: document.readyState,
    screen: detectScreen(),
    rootFound,
    testIds,
    testIdsUnchanged,
    a11y,
    nextRef
  }
}

/** Whether a ref is still bound to an element in this page, plus the refs that are. */
export const checkRef = (ref: string, isLive: (element: Element) => boolean): RefCheck => {
  const registry = (window as any)[Symbol.for("browser-workflow-mcp")]
  const current: Array<{ ref: string; role: string; name: string }> = []
  if (!registry) return { exists: false, current, frames: [] }
  let exists = false
  for (const [key, element] of registry.byRef as Map<string, Element>) {
    if (!isLive(element)) continue
    if (key === ref) exists = true
    const info = registry.info.get(key)
    if (current.length < 40 && info !== undefined && info.role !== "iframe") current.push({ ref: key, role: info.role, name: info.name })
  }
  // The refs of the iframes around the element, outermost first (empty in the top document).
  const frames: Array<string> = []
  let doc: Document | null = exists ? (registry.byRef.get(ref) as Element).ownerDocument : null
  while (doc !== null && doc !== document) {
    const frame: Element | null | undefined = doc.defaultView?.frameElement
    const frameRef = frame ? registry.byEl.get(frame) : undefined
    if (!frame || frameRef === undefined) return { exists: false, current, frames: [] }
    frames.unshift(frameRef)
    doc = frame.ownerDocument
  }
  return { exists, current, frames }
}

/** Whether text typed into this element must be treated as a secret. */
export const isSensitiveField = (element: Element): boolean => {
  const pattern = /pass(word|phrase)?|pwd|seed|phrase|mnemonic|private.?key|secret|api.?key|token|otp|one-time-code|srp/i
  const type = (element.getAttribute("type") ?? "").toLowerCase()
  if (type === "password") return true
  const autocomplete = (element.getAttribute("autocomplete") ?? "").toLowerCase()
  if (/current-password|new-password|one-time-code/.test(autocomplete)) return true
  const labels = (element as HTMLInputElement).labels
  const labelText = labels ? Array.from(labels, (l) => l.textContent ?? "").join(" ") : ""
  const hints = [
    element.getAttribute("name"),
    element.getAttribute("id"),
    element.getAttribute("aria-label"),
    element.getAttribute("placeholder"),
    element.getAttribute("data-testid"),
    labelText
  ]
  return hints.some((hint) => hint !== null && pattern.test(hint))
}

/** Text of an element for get_text: the value of a form field (never a password), else rendered text. */
export const readText = (element: Element): string | null => {
  const tag = element.localName
  if (tag === "input" || tag === "textarea" || tag === "select") {
    if ((element.getAttribute("type") ?? "").toLowerCase() === "password") return null
    return (element as HTMLInputElement).value
  }
  return (element as HTMLElement).innerText ?? element.textContent ?? ""
}
