// Capabilities with mock layers: each tool answers MM_CAPABILITY_NOT_AVAILABLE without its layer and works
// with it; the command build, file fixtures, and Fixture + StateSnapshot layers in a real launch.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Ref } from "effect"
import { Build } from "../src/capabilities/Build.js"
import { layerCommand } from "../src/capabilities/build-command.js"
import { Chain } from "../src/capabilities/Chain.js"
import { ContractSeeding } from "../src/capabilities/ContractSeeding.js"
import { Fixture, fromEntries } from "../src/capabilities/Fixture.js"
import { StateSnapshot } from "../src/capabilities/StateSnapshot.js"
import { appLayer } from "../src/cli.js"
import { BuildFailed } from "../src/domain/errors.js"
import { runTool, type ToolResponse } from "../src/runtime/runTool.js"
import type { AnyToolDefinition, ToolRegistry } from "../src/runtime/tool.js"
import { KnowledgeStore } from "../src/services/KnowledgeStore.js"
import { Observer } from "../src/services/Observer.js"
import { Progress } from "../src/services/Progress.js"
import { Session } from "../src/services/Session.js"
import { build } from "../src/tools/build.js"
import { getContractAddress, listContracts, seedContract, seedContracts } from "../src/tools/contracts.js"
import { getState } from "../src/tools/discovery.js"
import { launch } from "../src/tools/session.js"
import { html, pageServer, tempDir, testSettings, readable } from "./support/browser.js"
import { defaultSettings } from "../src/domain/config.js"
import * as BuiltinTools from "../src/tools/registry.js"

/** No session, no page: capability tools must not need either. */
const core = Layer.mergeAll(Session.layerTest({}), Observer.layerTest({}), KnowledgeStore.layerMemory, BuiltinTools.layer(defaultSettings))

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.map(
    runTool(tool)(args) as Effect.Effect<ToolResponse, never, ToolRegistry>,
    (response) => readable(response)
  )

describe("capabilities absent", () => {
  const cases: ReadonlyArray<readonly [AnyToolDefinition, Record<string, unknown>, string]> = [
    [build, {}, "Build"],
    [seedContract, { contractName: "Token" }, "ContractSeeding"],
    [seedContracts, { contracts: ["Token"] }, "ContractSeeding"],
    [getContractAddress, { contractName: "Token" }, "ContractSeeding"],
    [listContracts, {}, "ContractSeeding"]
  ]
  for (const [tool, args, capability] of cases) {
    it.effect(`${tool.name} without a ${capability} layer answers MM_CAPABILITY_NOT_AVAILABLE naming it and how to provide it`, () =>
      Effect.gen(function* () {
        const envelope = yield* call(tool, args)
        expect(envelope.ok).toBe(false)
        expect(envelope.error?.code).toBe("MM_CAPABILITY_NOT_AVAILABLE")
        expect(envelope.error?.details).toEqual({ capability })
        expect(envelope.error?.message).toContain(`The ${capability} capability is not available.`)
        expect(envelope.error?.message).toContain("makeServer({ layers")
      }).pipe(Effect.provide(core))
    )
  }

  it.effect("the build hint tells CLI users about the config file's build command", () =>
    Effect.gen(function* () {
      const envelope = yield* call(build)
      expect(envelope.error?.message).toContain('"build": {"command"')
    }).pipe(Effect.provide(core))
  )
})

describe("Build capability", () => {
  it.effect("build runs the capability with the request and forwards each output line as progress", () =>
    Effect.gen(function* () {
      const requests = yield* Ref.make<ReadonlyArray<unknown>>([])
      const reported = yield* Ref.make<ReadonlyArray<readonly [number, string]>>([])
      const fake = Build.layer({
        description: "fake",
        run: (request, progress) =>
          Effect.gen(function* () {
            yield* Ref.update(requests, (list) => [...list, request])
            yield* progress("compiling")
            yield* progress("bundling")
            return { durationMs: 12, outputTail: "done" }
          })
      })
      const progress = Layer.succeed(Progress, {
        report: (value, _total, message) => Ref.update(reported, (list) => [...list, [value, message] as const])
      })
      const envelope = yield* call(build, { buildType: "build:test", force: true }).pipe(Effect.provide(Layer.merge(fake, progress)))
      expect(envelope.result).toEqual({ built: true, durationMs: 12, outputTail: "done" })
      expect(yield* Ref.get(requests)).toEqual([{ buildType: "build:test", force: true }])
      expect(yield* Ref.get(reported)).toEqual([
        [1, "compiling"],
        [2, "bundling"]
      ])
    }).pipe(Effect.provide(core))
  )

  it.effect("a failing build answers MM_BUILD_FAILED with the tail of its output", () =>
    Effect.gen(function* () {
      const failing = Build.layer({
        description: "fake",
        run: () => Effect.fail(new BuildFailed({ reason: "ExitCode", detail: "exited with code 2", outputTail: "error TS2304" }))
      })
      const envelope = yield* call(build).pipe(Effect.provide(failing))
      expect(envelope.error?.code).toBe("MM_BUILD_FAILED")
      expect(envelope.error?.details).toEqual({ reason: "ExitCode", outputTail: "error TS2304" })
      expect(envelope.error?.message).toContain("error TS2304")
    }).pipe(Effect.provide(core))
  )

  it.live("the command build passes the build type, reports lines, and fails with the output tail on a non-zero exit", () =>
    Effect.gen(function* () {
      const dir = tempDir("bwm-build-")
      const lines: Array<string> = []
      const builder = yield* Effect.provide(Build, layerCommand({ command: 'echo "type=$BWM_BUILD_TYPE force=$BWM_BUILD_FORCE"; pwd' }, dir))
      const ok = yield* builder.run({ buildType: "build:test", force: false }, (line) => Effect.sync(() => lines.push(line)))
      expect(lines).toEqual(["type=build:test force=0", fs.realpathSync(dir)])
      expect(ok.outputTail).toContain("type=build:test")

      const failing = yield* Effect.provide(Build, layerCommand({ command: "for i in 1 2 3; do echo line$i; done; echo oops >&2; exit 3" }, dir))
      const error = yield* Effect.flip(failing.run({ buildType: undefined, force: false }, () => Effect.void))
      expect(error.reason).toBe("ExitCode")
      expect(error.detail).toContain("code 3")
      expect(error.outputTail).toBe("line1\nline2\nline3\noops")
    }))

  it.live("the command build is killed at its timeout and says so with the output so far", () =>
    Effect.gen(function* () {
      const slow = yield* Effect.provide(Build, layerCommand({ command: "echo started; sleep 10", timeoutMs: 1_000 }))
      const startedAt = Date.now()
      const error = yield* Effect.flip(slow.run({ buildType: undefined, force: false }, () => Effect.void))
      expect(error.reason).toBe("Timeout")
      expect(error.outputTail).toBe("started")
      expect(Date.now() - startedAt).toBeLessThan(5_000)
    }))
})

describe("ContractSeeding and Chain capabilities", () => {
  const seeding = ContractSeeding.layerMemory(["Token", "NFT"])

  it.effect("seed_contract deploys, get_contract_address finds it, list_contracts lists deployed and available", () =>
    Effect.gen(function* () {
      const seeded = yield* call(seedContract, { contractName: "Token", hardfork: "prague" })
      expect(seeded.result).toMatchObject({ contractName: "Token", contractAddress: `0x${"1".padStart(40, "0")}` })
      const address = yield* call(getContractAddress, { contractName: "Token" })
      expect(address.result).toEqual({ contractName: "Token", contractAddress: seeded.result.contractAddress })
      const listed = yield* call(listContracts)
      expect(listed.result.available).toEqual(["Token", "NFT"])
      expect(listed.result.deployed.map((contract: any) => contract.name)).toEqual(["Token"])
      // No Chain layer: no chain field.
      expect(listed.result.chain).toBeUndefined()
    }).pipe(Effect.provide(Layer.merge(core, seeding)))
  )

  it.effect("seed_contracts deploys what it can and reports the rest; unknown names fail with MM_SEED_FAILED and MM_CONTRACT_NOT_FOUND", () =>
    Effect.gen(function* () {
      const batch = yield* call(seedContracts, { contracts: ["NFT", "Nope", "Token"] })
      expect(batch.result.deployed.map((contract: any) => contract.name)).toEqual(["NFT", "Token"])
      expect(batch.result.failed).toEqual([{ name: "Nope", error: expect.stringContaining("Deploying Nope failed") }])

      const single = yield* call(seedContract, { contractName: "Nope" })
      expect(single.error?.code).toBe("MM_SEED_FAILED")
      expect(single.error?.details).toEqual({ contract: "Nope" })

      const missing = yield* call(getContractAddress, { contractName: "Vault" })
      expect(missing.error?.code).toBe("MM_CONTRACT_NOT_FOUND")
      expect(missing.error?.message).toContain("Known: NFT, Token")
    }).pipe(Effect.provide(Layer.merge(core, seeding)))
  )

  it.effect("list_contracts reports the chain when a Chain layer is present", () =>
    Effect.gen(function* () {
      const listed = yield* call(listContracts)
      expect(listed.result.chain).toEqual({ chainId: 1337, rpcUrl: "http://127.0.0.1:8545", name: "Localhost" })
    }).pipe(
      Effect.provide(Layer.mergeAll(core, seeding, Chain.layerStatic({ chainId: 1337, rpcUrl: "http://127.0.0.1:8545", name: "Localhost" })))
    )
  )
})

describe("Fixture and StateSnapshot capabilities", () => {
  it.effect("file fixtures resolve inline states and storage-state files relative to their directory; unknown names are None", () =>
    Effect.gen(function* () {
      const dir = tempDir("bwm-fixtures-")
      fs.writeFileSync(path.join(dir, "state.json"), JSON.stringify({ origins: [{ origin: "http://127.0.0.1", localStorage: [{ name: "a", value: "1" }] }] }))
      fs.writeFileSync(path.join(dir, "broken.json"), "{")
      const fixtures = fromEntries({ inline: { cookies: [], origins: [] }, file: "state.json", broken: "broken.json" }, dir)
      expect(yield* fixtures.names).toEqual(["inline", "file", "broken"])
      expect(yield* fixtures.resolve("inline")).toEqual(Option.some({ cookies: [], origins: [] }))
      const file = yield* fixtures.resolve("file")
      expect(Option.getOrThrow(file).origins[0]?.localStorage).toEqual([{ name: "a", value: "1" }])
      expect(yield* fixtures.resolve("missing")).toEqual(Option.none())
      expect(yield* fixtures.resolve("toString")).toEqual(Option.none())
      const broken = yield* Effect.flip(fixtures.resolve("broken"))
      expect(broken.code).toBe("MM_INVALID_CONFIG")
    })
  )

  it.live("a launch starts from a Fixture layer's preset, and a StateSnapshot layer adds app fields and the screen to get_state", () =>
    Effect.gen(function* () {
      const app = yield* pageServer({ "/": html("Wallet", `<p data-testid="balance">42 ETH</p>`) })
      const fixture = Fixture.layerPresets({
        unlocked: { cookies: [], origins: [{ origin: app.url, localStorage: [{ name: "unlocked", value: "yes" }] }] }
      })
      const snapshot = StateSnapshot.layer({
        snapshot: (page) =>
          Effect.map(
            page.evaluate(() => ({ unlocked: localStorage.getItem("unlocked"), balance: document.querySelector("[data-testid=balance]")?.textContent ?? null }), null),
            (read) => ({
              screen: read.unlocked === "yes" ? "wallet-home" : "locked",
              fields: { isUnlocked: read.unlocked === "yes", balance: read.balance, role: page.role, detected: page.detectedScreen }
            })
          )
      })
      const settings = testSettings({ appUrl: `${app.url}/` })
      const program = Effect.gen(function* () {
        const launched = yield* call(launch, { stateMode: "custom", fixturePreset: "unlocked" })
        expect(launched.error).toBeUndefined()
        expect(launched.result.state.screen).toBe("wallet-home")
        const state = yield* call(getState)
        expect(state.result.state.app).toEqual({ isUnlocked: true, balance: "42 ETH", role: "app", detected: "unknown" })

        const unknown = yield* call(launch, { stateMode: "custom", fixturePreset: "nope", force: true })
        expect(unknown.error?.code).toBe("MM_LAUNCH_FAILED")
        expect(unknown.error?.message).toContain('no fixture named "nope". Known fixtures: unlocked.')
      })
      yield* program.pipe(Effect.provide(appLayer(settings, "warning", [fixture, snapshot])))
    }).pipe(Effect.scoped))
})
