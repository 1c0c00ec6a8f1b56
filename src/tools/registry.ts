// Every built-in tool, in the order tools/list shows them.
import type { AnyToolDefinition } from "../runtime/tool.js"
import { accessibilitySnapshot, describeScreen, getState, listTestIds } from "./discovery.js"
import { click, getText, type, waitFor } from "./interaction.js"
import { navigate } from "./navigation.js"
import { screenshot } from "./screenshot.js"
import { cleanup, launch } from "./session.js"

export const builtinTools: ReadonlyArray<AnyToolDefinition> = [
  launch,
  cleanup,
  describeScreen,
  navigate,
  click,
  type,
  waitFor,
  getText,
  listTestIds,
  accessibilitySnapshot,
  screenshot,
  getState
]
