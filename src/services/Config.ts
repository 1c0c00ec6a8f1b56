// The parsed settings as a service, so adapters read them from one place.
import { Context, Layer } from "effect"
import { defaultSettings, type Settings } from "../domain/config.js"

export class Config extends Context.Tag("browser-workflow-mcp/Config")<Config, Settings>() {
  static readonly layer = (settings: Partial<Settings> = {}) => Layer.succeed(Config, { ...defaultSettings, ...settings })
}
