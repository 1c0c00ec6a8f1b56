// How a recorded mm_emulate step becomes lines of a Playwright test: Playwright's own calls where it has
// them, one DevTools session block for the rest, a comment for a device; resets write the calls that undo.
import { describe, expect, it } from "vitest"
import type { PlaywrightContext } from "../../src/domain/replay.js"
import { emulate } from "../../src/tools/emulate.js"

const lines = (args: Record<string, unknown>) => emulate.replay!.playwright!(args, {} as PlaywrightContext)

describe("mm_emulate's Playwright export", () => {
  it("offline alone is context.setOffline; offline with a network setting goes into the DevTools conditions", () => {
    expect(lines({ offline: true })).toEqual(["await page.context().setOffline(true)"])
    expect(lines({ offline: true, network: "slow-3g" })).toEqual([
      "{",
      "  const cdp = await page.context().newCDPSession(page)",
      '  await cdp.send("Network.emulateNetworkConditions", {"offline":true,"latency":2000,"downloadThroughput":50000,"uploadThroughput":50000})',
      "}"
    ])
  })

  it("a reset of everything undoes each setting, a device and the viewport as comments", () => {
    const written = lines({ reset: true }) ?? []
    expect(written).toContain('  await cdp.send("Network.emulateNetworkConditions", {"offline":false,"latency":0,"downloadThroughput":-1,"uploadThroughput":-1})')
    expect(written).toContain('  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 })')
    expect(written).toContain('  await cdp.send("Emulation.setTimezoneOverride", { timezoneId: "" })')
    expect(written).toContain('  await cdp.send("Emulation.setLocaleOverride", {})')
    expect(written).toContain("await page.emulateMedia({ colorScheme: null, reducedMotion: null })")
    expect(written).toContain("await page.context().setGeolocation(null)")
    expect(written.filter((line) => line.startsWith("//"))).toHaveLength(2)
  })

  it("a device is a comment naming test.use with Playwright's descriptor", () => {
    expect(lines({ device: "Pixel 7" })).toEqual([
      '// mm_emulate device "Pixel 7": Playwright sets a device per context, test.use({ ...devices["Pixel 7"] })'
    ])
  })
})
