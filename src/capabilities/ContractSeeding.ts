// The ContractSeeding capability: deploys named contracts for a test (upstream's seed_contract family).
import { Clock, Context, Effect, Layer, Ref, Schema } from "effect"
import { SeedFailed } from "../domain/errors.js"
import { LIBRARY_HINT, requireCapability } from "./require.js"

export const DeployedContract = Schema.Struct({
  name: Schema.String.annotations({ description: "Contract name as the seeding capability knows it." }),
  address: Schema.String.annotations({ description: "Deployed address." }),
  deployedAt: Schema.String.annotations({ description: "ISO time of the deployment." })
})
export type DeployedContract = typeof DeployedContract.Type

export interface DeployOptions {
  /** EVM hardfork to deploy with, when the node supports choosing. */
  readonly hardfork?: string | undefined
  /** Implementation-specific deployment options, passed through. */
  readonly deployerOptions?: Readonly<Record<string, unknown>> | undefined
}

export interface ContractSeedingService {
  /** Names of the contracts this capability can deploy. */
  readonly available: Effect.Effect<ReadonlyArray<string>>
  readonly deploy: (name: string, options: DeployOptions) => Effect.Effect<DeployedContract, SeedFailed>
  /** Contracts deployed so far in this server, oldest first. */
  readonly deployed: Effect.Effect<ReadonlyArray<DeployedContract>>
}

export class ContractSeeding extends Context.Tag("browser-workflow-mcp/capabilities/ContractSeeding")<
  ContractSeeding,
  ContractSeedingService
>() {
  static readonly layer = (service: ContractSeedingService) => Layer.succeed(ContractSeeding, service)

  /**
   * Pretends to deploy: known names get deterministic addresses. For tests and examples of the contract tools,
   * not for real chains.
   */
  static readonly layerMemory = (available: ReadonlyArray<string>) =>
    Layer.effect(
      ContractSeeding,
      Effect.gen(function* () {
        const deployed = yield* Ref.make<ReadonlyArray<DeployedContract>>([])
        return ContractSeeding.of({
          available: Effect.succeed(available),
          deployed: Ref.get(deployed),
          deploy: (name) =>
            Effect.gen(function* () {
              if (!available.includes(name)) {
                return yield* new SeedFailed({ contract: name, detail: `unknown contract; known: ${available.join(", ") || "(none)"}` })
              }
              const now = yield* Clock.currentTimeMillis
              return yield* Ref.modify(deployed, (list) => {
                const contract: DeployedContract = {
                  name,
                  address: `0x${(list.length + 1).toString(16).padStart(40, "0")}`,
                  deployedAt: new Date(now).toISOString()
                }
                return [contract, [...list.filter((entry) => entry.name !== name), contract]] as const
              })
            })
        })
      })
    )

  static readonly required = requireCapability(
    ContractSeeding,
    "ContractSeeding",
    `Contract tools need a ContractSeeding layer (usually built on a Chain layer); the CLI has none. ${LIBRARY_HINT}`
  )
}
