// MM_TARGET_AMBIGUOUS with the first few matches, each with a ref, so that an agent can retry with one ref
// in one call. Playwright's selector engine finds the matches (through a marking step of the ref engine,
// which runs in our world), and the page binds refs to them as a walk would (page/candidates.ts).
import { Effect } from "effect"
import type { Locator, Page } from "playwright"
import { TargetAmbiguous } from "../../../domain/errors.js"
import type { LiveSession } from "../lifecycle/live-session.js"
import { inBlock, type RefSpaceService } from "../lifecycle/ref-space.js"
import { PAGE } from "../page-bundle.js"
import { ariaTestsExpression } from "../page-durable.js"
import { evaluateInPage } from "../page-eval.js"
import { installWalkStatement, REF_ENGINE, walkInstallKey, type Candidates, type CandidatesArgs } from "../page-script.js"

/** At most this many matches are listed: enough to choose from, few enough to cost little. */
export const CANDIDATES_SHOWN = 5
/**
 * The ref numbers a listing may bind: a match's own and those of up to three frames around it, for each
 * match shown. Past them the page lists no more (page/candidates.ts); what is not used goes back.
 */
const CANDIDATE_REFS = CANDIDATES_SHOWN * 4
/** How much of each match's name is shown. */
const NAME_CHARS = 40
/** A step that notes each element the steps before it matched, in our world (page/candidates.ts MARK_PREFIX reads it). */
const markStep = (token: string) => `${REF_ENGINE}=mark:${token}`
/** Listing the matches may take this long; past it the error goes without them. */
const LIST_TIMEOUT_MS = 1_000

const listExpression = (args: CandidatesArgs, testIdAttribute: string): string =>
  `(() => {
    if (window[Symbol.for(${JSON.stringify(walkInstallKey())})] === undefined) ${installWalkStatement()}
    return (${PAGE.candidates})(${JSON.stringify(args)}, ${ariaTestsExpression(walkInstallKey(), testIdAttribute)})
  })()`

/** The token the direct path notes an ambiguous target's matches under (page/candidates.ts DIRECT_TOKEN). */
const DIRECT_TOKEN = "direct"

/**
 * Where the matches come from: Playwright's engine, for a locator (a marking step counts them), or the
 * direct path's own look that found several (`"direct"`: page/actions.ts noted them), which keeps
 * Playwright's injected script out of a page the direct path reads.
 */
export type MatchSource = Locator | "direct"

/** The first CANDIDATES_SHOWN matches with refs (bound now when they had none), and how many match; undefined when the page cannot say in time. */
const listMatches = (page: Page, live: LiveSession | undefined, refs: RefSpaceService, source: MatchSource, testIdAttribute: string) => {
  const list = Effect.promise(async (signal): Promise<Candidates | undefined> => {
    const started = Date.now()
    const left = () => Math.max(1, LIST_TIMEOUT_MS - (Date.now() - started))
    let token = DIRECT_TOKEN
    if (source !== "direct") {
      token = Math.random().toString(36).slice(2, 12)
      await source.locator(markStep(token)).count()
    }
    // The refs bound here come out of a block of the server's ref space, as a walk's do.
    return inBlock(refs, CANDIDATE_REFS, live?.refsTaken, (block) => {
      const args: CandidatesArgs = { token, nextRef: block.start, refEnd: block.end, limit: CANDIDATES_SHOWN, nameChars: NAME_CHARS }
      return evaluateInPage<Candidates>(page, listExpression(args, testIdAttribute), { timeoutMs: left(), signal })
    })
  })
  // Under the session's observe lock, like its walks: a page runs the evaluations in the order they took their blocks.
  return (live === undefined ? list : live.observeLock.withPermits(1)(list)).pipe(
    Effect.catchAllDefect(() => Effect.succeed(undefined)),
    Effect.timeoutTo({ duration: LIST_TIMEOUT_MS, onSuccess: (answer) => answer, onTimeout: () => undefined })
  )
}

/**
 * The ambiguity with the target's first matches listed (their refs work in the next call); as it was when
 * it lists them already or the page cannot name them in time.
 */
export const withCandidates = (page: Page, live: LiveSession | undefined, refs: RefSpaceService, source: MatchSource, testIdAttribute: string) => (ambiguous: TargetAmbiguous) =>
  Effect.gen(function* () {
    if (ambiguous.candidates !== undefined || page.isClosed()) return ambiguous
    const listed = yield* listMatches(page, live, refs, source, testIdAttribute)
    if (listed === undefined || listed.candidates.length === 0) return ambiguous
    return new TargetAmbiguous({ target: ambiguous.target, count: listed.count > 1 ? listed.count : ambiguous.count, candidates: listed.candidates })
  })
