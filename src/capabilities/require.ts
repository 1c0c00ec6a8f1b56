// How tools reach an optional capability: present, or MM_CAPABILITY_NOT_AVAILABLE saying how to provide it.
import { Context, Effect, Option } from "effect"
import { CapabilityNotAvailable } from "../domain/errors.js"

/**
 * The capability's service, or CapabilityNotAvailable naming it and how to provide it. Read with
 * Effect.serviceOption so a tool's requirements stay satisfiable by the core layers alone.
 */
export const requireCapability = <I, S>(tag: Context.Tag<I, S>, capability: string, hint: string) =>
  Effect.flatMap(
    Effect.serviceOption(tag),
    Option.match({
      onNone: () => Effect.fail(new CapabilityNotAvailable({ capability, hint })),
      onSome: (service) => Effect.succeed(service)
    })
  )

/** How library users provide any capability; appended to each capability's own hint. */
export const LIBRARY_HINT = "Library users pass its layer to makeServer({ layers: [...] }) (see docs/capabilities.md)."
