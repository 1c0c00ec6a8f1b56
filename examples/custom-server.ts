#!/usr/bin/env node
// A server of your own: the built-in browser tools, plus a tool that uses your own service, plus
// capability layers (a build, contract seeding on a chain). Run it like the CLI, with the same flags:
//   node dist/examples/custom-server.js --loopback-only --app-url http://127.0.0.1:3000/
// In your project, import from "browser-workflow-mcp" instead of "../src/index.js".
import { Context, Effect, Layer, Schema } from "effect"
import { Build, Chain, ContractSeeding, defineTool, makeServer, requireCapability } from "../src/index.js"

/** A service of the consumer's own; tools reach it like a capability, so the core layers stay enough. */
export class Greeter extends Context.Tag("example/Greeter")<Greeter, { readonly greet: (name: string) => Effect.Effect<string> }>() {}

export const hello = defineTool({
  name: "hello",
  title: "Say hello",
  description: "Greets someone by name, to show a consumer's own tool served beside the built-in ones. Returns {greeting}.",
  input: Schema.Struct({
    name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(50)).annotations({ description: "Who to greet." })
  }),
  output: Schema.Struct({ greeting: Schema.String.annotations({ description: "The greeting." }) }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  // Listed only when the server has a Greeter; called anyway, requireCapability says how to provide one.
  capability: Greeter,
  requiresSession: false,
  observation: "none",
  run: Effect.fn("tool.hello")(function* (input) {
    const greeter = yield* requireCapability(Greeter, "Greeter", "Provide a Greeter layer to makeServer({ layers }).")
    return { greeting: yield* greeter.greet(input.name) }
  })
})

/** A build that takes three steps; each step is a progress notification for the client. */
const demoBuild = Build.layer({
  description: "three-step demo build",
  run: (request, progress) =>
    Effect.gen(function* () {
      for (const step of ["compile", "bundle", `package ${request.buildType ?? "default"}`]) {
        yield* progress(step)
        // Real builds take time between lines; the SDK client drops progress that arrives with the response.
        yield* Effect.sleep("50 millis")
      }
      return { durationMs: 0, outputTail: "demo build finished" }
    })
})

const server = makeServer({
  tools: [hello],
  layers: [
    Layer.succeed(Greeter, { greet: (name) => Effect.succeed(`Hello, ${name}!`) }),
    demoBuild,
    Chain.layerStatic({ chainId: 1337, rpcUrl: "http://127.0.0.1:8545", name: "Localhost" }),
    ContractSeeding.layerMemory(["Token", "NFT"])
  ]
})

void server.serveStdio()
