// The library's public surface: tools, runTool, services, layers, errors and the MCP server.
export * as Errors from "./domain/errors.js"
export * from "./domain/errors.js"
export * from "./domain/target.js"
export * from "./domain/observation.js"
export * from "./domain/snapshot-text.js"
export * from "./domain/envelope.js"
export * from "./domain/knowledge.js"
export * from "./domain/config.js"
export * from "./cli/option-table.js"
export * from "./cli/option-types.js"
export * from "./domain/debugger.js"
export { redactDeep, REDACTED } from "./domain/redaction.js"

export {
  Session,
  type SessionService,
  type LaunchOptions,
  type SessionInfo,
  type PauseSummary,
  type DebuggerStatus,
  type DebuggerCommand,
  type RunOutcome
} from "./services/Session.js"
export { Observer, type ObserverService, type ObserveOptions } from "./services/Observer.js"
export { Sessions, withSession, type SessionHandle, type SessionListing, type SessionsService } from "./services/Sessions.js"
export { KnowledgeStore, type KnowledgeStoreService } from "./services/KnowledgeStore.js"
export { Config } from "./services/Config.js"
export { Secrets, type SecretsService } from "./services/Secrets.js"
export { parseDotenv, makeTextRedactor, secretMarker, SECRET_NAME } from "./domain/secrets.js"
export { checkNavigation, checkRequest, originMatches, type UrlPolicy, type Verdict } from "./domain/url-policy.js"

export {
  defineTool,
  groupOf,
  replayModeOf,
  ListedAs,
  Unlisted,
  type ToolDefinition,
  type AnyToolDefinition,
  type ToolServices,
  type ToolAnnotations,
  type Replay,
  type ReplayArgs,
  type PlaywrightContext,
  type RecordedCall,
  type Attachment
} from "./runtime/tool.js"
export { runTool, decodeInput, type RunOptions, type ToolResponse } from "./runtime/runTool.js"
export { makeRegistry, optInGroups, toolLookup, ToolRegistry, type ToolRegistryService } from "./runtime/registry.js"
export {
  ToolView,
  visibleTools,
  toolGate,
  globMatcher,
  META_GROUP,
  ALL_CAPS,
  type ToolViewService,
  type VisibilityRule,
  type Blocked
} from "./runtime/visibility.js"

export { Tools, builtinTools, servedRegistry, layer as toolRegistryLayer } from "./tools/registry.js"
// The older per-tool exports, kept for the tools that had them; new tools are in `Tools` only.
export { click, type, waitFor, getText, pressKey, selectOption, hover, Key } from "./tools/interaction.js"
export { drag, scroll, setChecked, uploadFile } from "./tools/gestures.js"
export { expectTool, savePdf } from "./tools/assertions.js"
export { navigate } from "./tools/navigation.js"
export { launch, cleanup } from "./tools/session.js"
export { describeScreen, listTestIds, accessibilitySnapshot, getState } from "./tools/discovery.js"
export { find } from "./tools/find.js"
export { screenshot } from "./tools/screenshot.js"
export { saveStorageState } from "./tools/storage.js"
export { consoleMessages, networkRequests, networkRequest, mockNetwork } from "./tools/devtools.js"
export { evaluate } from "./tools/evaluate.js"
export { DEVTOOLS_GROUP, EVALUATE_GROUP, type SessionDevtools } from "./services/session/devtools.js"
export {
  knowledge,
  knowledgeLast,
  knowledgeSearch,
  knowledgeSummarize,
  knowledgeSessions,
  knowledgeExport,
  exportSession,
  exportAs,
  summarizeSession
} from "./tools/knowledge.js"
export { report, buildReport, writeReport } from "./tools/report.js"
export { replay } from "./tools/replay.js"
export { debuggerControl, breakpoint, step, evaluateFrame, debuggerTools } from "./tools/debugger.js"
export { catalogOf } from "./services/KnowledgeStore.js"

export * as PlaywrightLayer from "./adapters/playwright/index.js"
// The switches a browser this server launches gets: to start a remote browser (a Playwright browser server, a Chromium for CDP) the same way.
export { LOOPBACK_ARGS, OUR_DISABLED_FEATURES, withDisabledFeatures } from "./adapters/playwright/lifecycle/launch.js"
export { layerFileSystem as knowledgeLayerFileSystem } from "./adapters/knowledge-files.js"
export { layer as stderrLoggerLayer } from "./adapters/logger.js"
export { makeMcpServer, serveStdio, toCallToolResult, describeTool, instructions, type McpServerOptions } from "./mcp/server.js"
export { makeToolListChanges, toolListChangesOf, type ToolListChanges } from "./mcp/tool-list.js"
export { inputJsonSchema, jsonSchemaOf } from "./mcp/json-schema.js"
export { hideTools, showTools } from "./tools/meta.js"
export { makeRunSteps, BATCH_TOOL_NAME } from "./tools/batch.js"
export { targetInput, targetFields as targetToolFields, elementTool, DialogField } from "./tools/shared.js"
export { appLayer, parseCli, serve } from "./cli.js"
export { makeServer, configCapabilities, type MakeServerOptions, type BrowserWorkflowServer, type CapabilityLayer } from "./cli.js"
export * from "./capabilities/index.js"
export { extensionStorage } from "./tools/extension.js"
export { closeTab, listTabs, switchToTab, tabs, waitForNotification, arrangeTabs } from "./tools/tabs.js"
export { build } from "./tools/build.js"
export { getContractAddress, listContracts, seedContract, seedContracts } from "./tools/contracts.js"
