// The Chain capability: a local blockchain node the app under test talks to (e.g. Anvil), as upstream's
// wallet flows need. Contract seeding deploys onto it; list_contracts reports it when present.
import { Context, Effect, Layer, Schema } from "effect"

export const ChainInfo = Schema.Struct({
  chainId: Schema.Number.annotations({ description: "Chain id of the node." }),
  rpcUrl: Schema.String.annotations({ description: "JSON-RPC endpoint of the node." }),
  name: Schema.optional(Schema.String).annotations({ description: "Human-readable network name." })
})
export type ChainInfo = typeof ChainInfo.Type

export interface ChainService {
  /** The running node; implementations start it in their layer's scope and stop it when the layer closes. */
  readonly info: Effect.Effect<ChainInfo>
}

export class Chain extends Context.Tag("browser-workflow-mcp/capabilities/Chain")<Chain, ChainService>() {
  static readonly layer = (service: ChainService) => Layer.succeed(Chain, service)
  /** A fixed description, for tests and for nodes started outside the server. */
  static readonly layerStatic = (info: ChainInfo) => Layer.succeed(Chain, { info: Effect.succeed(info) })
}
