// Optional capabilities a library consumer provides as layers; each enables tools or enriches observations.
export { Build, type BuildRequest, type BuildResult, type BuildService } from "./Build.js"
export { layerCommand as buildLayerCommand, makeCommand as makeBuildCommand, type BuildCommand } from "./build-command.js"
export { Chain, ChainInfo, type ChainService } from "./Chain.js"
export { ContractSeeding, DeployedContract, type ContractSeedingService, type DeployOptions } from "./ContractSeeding.js"
export { Fixture, fromEntries as fixturesFromEntries, type FixtureService } from "./Fixture.js"
export { StateSnapshot, type AppSnapshot, type PageProbe, type StateSnapshotService } from "./StateSnapshot.js"
export { requireCapability } from "./require.js"
