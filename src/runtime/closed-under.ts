// A call whose session the server closed while it ran (another client's mm_sessions {action: "close"}, an
// mm_cleanup of a parallel call): its failure is the close's doing, whatever the page did as it went
// (MM_PAGE_CLOSED, an aborted navigation), so it answers as the next call on that session would.
import { Effect, Option } from "effect"
import { clip, NoActiveSession, SessionNotFound, toErrorInfo, type ErrorInfo, type ToolError } from "../domain/errors.js"
import type { SessionsService } from "../services/Sessions.js"
import { servedText } from "./registry.js"
import { ToolRegistry, type AnyToolDefinition } from "./tool.js"
import { servedNameOf } from "./visibility.js"

/** An error as the envelope carries it, its tools named as served. */
export const servedError = (error: ToolError): Effect.Effect<ErrorInfo> =>
  Effect.map(Effect.serviceOption(ToolRegistry), (registry) => {
    const info = toErrorInfo(error)
    return Option.isSome(registry) ? { ...info, message: servedText(registry.value)(info.message) } : info
  })

/**
 * The error a failed call answers instead when the server closed its session meanwhile: the next call's
 * MM_NO_ACTIVE_SESSION on the client's current session, MM_SESSION_NOT_FOUND on one its `session` named;
 * each says which session and what closed it. None when the session was not closed (or the tool needs none).
 */
export const closedUnder = (
  definition: AnyToolDefinition,
  sessions: SessionsService,
  sessionId: string | undefined,
  selector: string | undefined
): Effect.Effect<Option.Option<ErrorInfo>> =>
  Effect.gen(function* () {
    if (sessionId === undefined || !definition.requiresSession) return Option.none()
    const why = yield* sessions.whyClosed(sessionId)
    if (Option.isNone(why)) return Option.none()
    if (selector !== undefined) {
      const yours = (yield* sessions.list).map((listing) => (listing.name === undefined ? listing.id : `${listing.id} (${listing.name})`))
      return Option.some(yield* servedError(new SessionNotFound({ session: clip(selector), yours, ended: why.value })))
    }
    const left = yield* sessions.count
    return Option.some(
      yield* servedError(
        new NoActiveSession({ tool: yield* servedNameOf(definition), ended: { sessionId, why: why.value }, ...(left > 0 ? { yours: left } : {}) })
      )
    )
  })
