// Every built-in tool, in the order tools/list shows them, and the layer that serves them. A tool's
// metadata (group, visibility, step kinds, replay) lives on its definition: adding a tool is its file
// plus one line here.
import { Layer } from "effect"
import type { Settings } from "../domain/config.js"
import { makeRegistry, ToolRegistry, type ToolRegistryService } from "../runtime/registry.js"
import type { AnyToolDefinition } from "../runtime/tool.js"
import { makeRunSteps } from "./batch.js"
import { breakpoint, debuggerControl, evaluateFrame, step } from "./debugger.js"
import { accessibilitySnapshot, describeScreen, getState, listTestIds } from "./discovery.js"
import { click, getText, hover, pressKey, selectOption, type, waitFor } from "./interaction.js"
import { drag, scroll, setChecked, uploadFile } from "./gestures.js"
import { expectTool, savePdf } from "./assertions.js"
import { knowledge, knowledgeExport, knowledgeLast, knowledgeSearch, knowledgeSessions, knowledgeSummarize } from "./knowledge.js"
import { find } from "./find.js"
import { navigate } from "./navigation.js"
import { replay } from "./replay.js"
import { report } from "./report.js"
import { screenshot } from "./screenshot.js"
import { cleanup, launch, sessions } from "./session.js"
import { saveStorageState, storage } from "./storage.js"
import { emulate } from "./emulate.js"
import { extensionStorage } from "./extension.js"
import { build } from "./build.js"
import { getContractAddress, listContracts, seedContract, seedContracts } from "./contracts.js"
import { hideTools, showTools } from "./meta.js"
import { downloads } from "./downloads.js"
import { consoleMessages, mockNetwork, networkRequest, networkRequests } from "./devtools.js"
import { evaluate } from "./evaluate.js"
import { performance } from "./performance.js"
import { closeTab, listTabs, switchToTab, tabs, waitForNotification } from "./tabs.js"

/** The built-in tools by name, in tools/list order: the library's `Tools` namespace. */
export const Tools = {
  launch,
  cleanup,
  sessions,
  describeScreen,
  navigate,
  click,
  type,
  pressKey,
  selectOption,
  hover,
  drag,
  setChecked,
  uploadFile,
  scroll,
  waitFor,
  expectTool,
  getText,
  listTestIds,
  accessibilitySnapshot,
  find,
  screenshot,
  savePdf,
  saveStorageState,
  storage,
  emulate,
  downloads,
  getState,
  debuggerControl,
  breakpoint,
  step,
  evaluateFrame,
  tabs,
  // Old names of mm_tabs' actions: callable, not listed.
  listTabs,
  switchToTab,
  closeTab,
  waitForNotification,
  extensionStorage,
  consoleMessages,
  networkRequests,
  networkRequest,
  mockNetwork,
  performance,
  evaluate,
  build,
  seedContract,
  seedContracts,
  getContractAddress,
  listContracts,
  knowledge,
  replay,
  knowledgeLast,
  knowledgeSearch,
  knowledgeSummarize,
  knowledgeSessions,
  knowledgeExport,
  report,
  hideTools,
  showTools
} as const

export const builtinTools: ReadonlyArray<AnyToolDefinition> = Object.values(Tools)

/** The served registry: the tools (the built-in ones by default) and the batch tool over them, with the settings' prefix and batch limits. */
export const servedRegistry = (
  settings: Pick<Settings, "toolPrefix" | "batch">,
  tools: ReadonlyArray<AnyToolDefinition> = builtinTools
): ToolRegistryService => makeRegistry([...tools, makeRunSteps(settings.batch)], settings.toolPrefix)

/** The ToolRegistry service over the served registry. */
export const layer = (settings: Pick<Settings, "toolPrefix" | "batch">, tools: ReadonlyArray<AnyToolDefinition> = builtinTools): Layer.Layer<ToolRegistry> =>
  ToolRegistry.layer(servedRegistry(settings, tools))
