// Contract tools of upstream (seed_contract, seed_contracts, get_contract_address, list_contracts) over the
// ContractSeeding capability; the Chain capability, when present, is reported alongside.
import { Effect, Option, Schema } from "effect"
import { Chain, ChainInfo } from "../capabilities/Chain.js"
import { ContractSeeding, DeployedContract } from "../capabilities/ContractSeeding.js"
import { ContractNotFound } from "../domain/errors.js"
import { JsonValue } from "../domain/observation.js"
import { defineTool } from "../runtime/tool.js"
import { NoInput } from "./shared.js"

const ContractName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

const Hardfork = Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(50))).annotations({
  description: 'EVM hardfork, e.g. "prague".'
})

const seeding = { readOnly: false, destructive: false, idempotent: false, openWorld: true } as const
const reading = { readOnly: true, destructive: false, idempotent: true, openWorld: false } as const

/** Listed only when the server has contract seeding. */
const contractTool = { group: "contracts", capability: ContractSeeding, requiresSession: false } as const

export const seedContract = defineTool({
  name: "seed_contract",
  title: "Deploy a contract",
  description: "Deploy a named test contract to the local chain, e.g. before a flow that needs a token. Returns {contractName, contractAddress, deployedAt}.",
  input: Schema.Struct({
    contractName: ContractName.annotations({ description: "Contract name (see mm_list_contracts)." }),
    hardfork: Hardfork,
    deployerOptions: Schema.optional(Schema.Record({ key: Schema.String, value: JsonValue })).annotations({
      description: "Options for the deployer."
    })
  }),
  output: Schema.Struct({
    contractName: Schema.String.annotations({ description: "The contract deployed." }),
    contractAddress: Schema.String.annotations({ description: "Its address." }),
    deployedAt: Schema.String.annotations({ description: "ISO time of the deployment." })
  }),
  annotations: seeding,
  ...contractTool,
  observation: "none",
  deadlineMs: () => 120_000,
  run: Effect.fn("tool.seed_contract")(function* (input) {
    const contracts = yield* ContractSeeding.required
    const deployed = yield* contracts.deploy(input.contractName, { hardfork: input.hardfork, deployerOptions: input.deployerOptions })
    return { contractName: deployed.name, contractAddress: deployed.address, deployedAt: deployed.deployedAt }
  })
})

export const seedContracts = defineTool({
  name: "seed_contracts",
  title: "Deploy contracts",
  description: "Deploy several contracts in order; a failure does not stop the others. Returns {deployed, failed}.",
  input: Schema.Struct({
    contracts: Schema.Array(ContractName).pipe(Schema.minItems(1), Schema.maxItems(20)).annotations({
      description: "Contract names (1..20)."
    }),
    hardfork: Hardfork
  }),
  output: Schema.Struct({
    deployed: Schema.Array(DeployedContract).annotations({ description: "Contracts deployed by this call." }),
    failed: Schema.Array(
      Schema.Struct({
        name: Schema.String.annotations({ description: "Contract that failed." }),
        error: Schema.String.annotations({ description: "Why it failed." })
      })
    ).annotations({ description: "Contracts that could not be deployed." })
  }),
  annotations: seeding,
  ...contractTool,
  observation: "none",
  deadlineMs: () => 300_000,
  run: Effect.fn("tool.seed_contracts")(function* (input) {
    const contracts = yield* ContractSeeding.required
    const outcomes = yield* Effect.forEach(input.contracts, (name) =>
      Effect.either(contracts.deploy(name, { hardfork: input.hardfork }))
    )
    const deployed = outcomes.flatMap((outcome) => (outcome._tag === "Right" ? [outcome.right] : []))
    const failed = outcomes.flatMap((outcome, index) =>
      outcome._tag === "Left" ? [{ name: input.contracts[index] ?? "", error: outcome.left.message }] : []
    )
    return { deployed, failed }
  })
})

export const getContractAddress = defineTool({
  name: "get_contract_address",
  title: "Contract address",
  description: "Address of a deployed contract. Returns {contractName, contractAddress}.",
  input: Schema.Struct({
    contractName: ContractName.annotations({ description: "Name of a deployed contract." })
  }),
  output: Schema.Struct({
    contractName: Schema.String.annotations({ description: "The contract asked for." }),
    contractAddress: Schema.String.annotations({ description: "Its address." })
  }),
  annotations: reading,
  concurrencySafe: true,
  ...contractTool,
  observation: "none",
  run: Effect.fn("tool.get_contract_address")(function* (input) {
    const contracts = yield* ContractSeeding.required
    const deployed = yield* contracts.deployed
    const found = deployed.findLast((contract) => contract.name === input.contractName)
    if (found === undefined) {
      return yield* new ContractNotFound({ contract: input.contractName, available: deployed.map((contract) => contract.name) })
    }
    return { contractName: found.name, contractAddress: found.address }
  })
})

export const listContracts = defineTool({
  name: "list_contracts",
  title: "List contracts",
  description: "Contracts deployed so far, the names that can be deployed, and the local chain. Returns {deployed, available, chain?}.",
  input: NoInput,
  output: Schema.Struct({
    deployed: Schema.Array(DeployedContract).annotations({ description: "Deployed contracts, oldest first." }),
    available: Schema.Array(Schema.String).annotations({ description: "Contract names the seeding capability can deploy." }),
    chain: Schema.optional(ChainInfo).annotations({ description: "The local chain, when a Chain capability is provided." })
  }),
  annotations: reading,
  concurrencySafe: true,
  ...contractTool,
  observation: "none",
  run: Effect.fn("tool.list_contracts")(function* () {
    const contracts = yield* ContractSeeding.required
    const [deployed, available] = yield* Effect.all([contracts.deployed, contracts.available])
    const chain = yield* Effect.serviceOption(Chain)
    if (Option.isNone(chain)) return { deployed, available }
    return { deployed, available, chain: yield* chain.value.info }
  })
})
