// One observation: page state, screen by rules, test ids and the page's tree with refs (or the matches
// of a search), in one walk of the DOM. The stages: open the document's ledger (carry), build the tree
// (walk.ts), finish it (refs.ts), then list it (collapse.ts, listing.ts) or search it (find.ts).
import { makeAria } from "./aria.js"
import { flattenTree } from "./collapse.js"
import { findIn } from "./find.js"
import { listNodes, recordSeen } from "./listing.js"
import { finishTree } from "./refs.js"
import { ledgerAnswer, openDocument, registryOf, viewFor, watchAndPrune, type LedgerChanges } from "./registry.js"
import { readPageState } from "./state.js"
import { makeInAriaDisabled } from "./states.js"
import { collectTestIds } from "./test-ids.js"
import type { Walk } from "./tree.js"
import type { AriaTests, ObserveArgs, ObserveResult, RawTestId } from "./types.js"
import { markRetold } from "./told-names.js"
import { buildTree } from "./walk.js"

/** The element at the root selector (null when there is none), or the document's. */
const rootOf = (args: ObserveArgs): Element | null => {
  if (args.rootSelector === null) return document.documentElement
  try {
    return document.querySelector(args.rootSelector)
  } catch {
    return null
  }
}

/** Test ids a search records as seen (the observation after an action lists 50). */
const SEARCHED_TEST_IDS = 150

export const observePage = (args: ObserveArgs): ObserveResult => {
  const registry = registryOf()
  const wantTree = args.wantA11y || args.find !== undefined
  const changes: LedgerChanges = { told: new Set(), refs: new Set() }
  const here = location.href.split("#")[0]!

  if (wantTree && !registry.opened && openDocument(registry, args, here)) {
    return { ...readPageState(args), rootFound: true, testIds: null, testIdsUnchanged: 0, a11y: null, nextRef: Math.max(args.nextRef, registry.nextRef ?? 0), carryWanted: here }
  }
  if (wantTree) watchAndPrune(registry, changes)

  const root = rootOf(args)
  const rootFound = args.rootSelector === null || root !== null
  // What the client observing was told and saw; a search of the whole page counts as looking at it.
  const view = viewFor(registry, args, changes)
  const searched = args.find !== undefined && args.rootSelector === null
  let testIds: Array<RawTestId> | null = null
  let testIdsUnchanged = 0
  if (args.wantTestIds) {
    const collected = collectTestIds(args, view, root, args.testIdLimit)
    testIds = collected.testIds
    testIdsUnchanged = collected.unchanged
  } else if (searched) {
    collectTestIds(args, view, root, SEARCHED_TEST_IDS)
  }

  // The server's count may lag behind the refs this document handed out (an answer it never got).
  let nextRef = Math.max(args.nextRef, registry.nextRef ?? 0)
  let a11y: ObserveResult["a11y"] = null
  let found: ObserveResult["found"]
  if (wantTree || args.aria === true) {
    const aria = makeAria()
    if (args.aria === true) {
      const tests: AriaTests = { roleOf: aria.roleOf, nameOf: aria.nameOf, hidden: aria.hidden }
      return tests as unknown as ObserveResult
    }
    const walk: Walk = {
      args,
      aria,
      registry,
      changes,
      view,
      textCap: Math.max(20, args.textLimit ?? 300),
      // The snapshot shows far fewer nodes once runs collapse; a search looks further.
      treeCap: args.find !== undefined ? 10_000 : 2_000,
      // The server reserves as many numbers as the cap; a page whose own count is ahead has fewer left.
      refsLeft: Math.max(0, args.refEnd - nextRef),
      whole: args.rootSelector === null,
      inAriaDisabled: makeInAriaDisabled(),
      nextRef,
      refEnd: args.refEnd,
      emitted: 0,
      cut: false,
      naming: 0
    }
    const top = buildTree(walk, root)
    finishTree(walk, top)
    if (args.find !== undefined) {
      found = findIn(top, args.find)
      if (searched) recordSeen(walk, flattenTree(top), new Set(found.lines.flatMap((line) => (line.node === undefined ? [] : [line.node.ref]))))
    } else a11y = listNodes(walk, flattenTree(top, args.changesOnly, markRetold(view, top)))
    nextRef = walk.nextRef
  }

  const result: ObserveResult = { ...readPageState(args), rootFound, testIds, testIdsUnchanged, a11y, nextRef }
  if (found !== undefined) result.found = found
  if (wantTree) {
    const ledger = ledgerAnswer(registry, args, here, changes)
    if (ledger !== undefined) result.ledger = ledger
  }
  return result
}
