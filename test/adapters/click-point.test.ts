// The direct click's point from content quads: Playwright's (the middle of the first quad that keeps an
// area inside the viewport, cut to hundredths), and the whole page pixel the browser's hit test looks at.
import { describe, expect, it } from "vitest"
import { clickPointOf } from "../../src/adapters/playwright/session/direct.js"

const viewport = { width: 1280, height: 800, scrollX: 0, scrollY: 0 }

describe("clickPointOf", () => {
  it("takes the middle of a box, cut to hundredths toward zero", () => {
    expect(clickPointOf([[10, 20, 110.337, 20, 110.337, 60.009, 10, 60.009]], viewport)).toEqual({
      point: { x: 60.16, y: 40 },
      hit: { x: 60, y: 40 }
    })
  })

  it("averages the corners of a quad that is no parallelogram (a perspective), not its bounding box", () => {
    // Corners from Chromium for a button under rotateY(50deg) in a perspective of 300px.
    const quad = [13.16, 62.6, 500.92, 88.72, 500.92, 141.28, 13.16, 167.4]
    const middle = clickPointOf([quad], viewport)!.point
    expect(middle).toEqual({ x: 257.04, y: 115 })
    // A quad whose bounding box's middle is (50, 50): the corners' average is lower.
    expect(clickPointOf([[0, 0, 100, 10, 100, 30, 0, 100]], viewport)!.point).toEqual({ x: 50, y: 35 })
  })

  it("clips the quad to the viewport first, as Playwright does, and skips quads without an area there", () => {
    const outside = [-300, 10, -100, 10, -100, 50, -300, 50]
    const tall = [100, -500, 300, -500, 300, 1500, 100, 1500]
    expect(clickPointOf([outside, tall], viewport)).toEqual({ point: { x: 200, y: 400 }, hit: { x: 200, y: 400 } })
    expect(clickPointOf([outside], viewport)).toBeUndefined()
    expect(clickPointOf([[5, 5, 5, 5, 5, 5, 5, 5]], viewport)).toBeUndefined()
  })

  it("hit-tests in whole page pixels: the scroll added, then rounded", () => {
    const scrolled = { ...viewport, scrollX: 7, scrollY: 1203 }
    expect(clickPointOf([[10, 10, 20.9, 10, 20.9, 20.9, 10, 20.9]], scrolled)).toEqual({
      point: { x: 15.45, y: 15.45 },
      hit: { x: 22, y: 1218 }
    })
  })
})
