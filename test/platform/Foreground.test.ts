import { describe, expect, it } from "vitest"
import { foreground } from "../../src/platform/Foreground.js"

describe("foreground requests", () => {
  it("count while served and for the window after the last one ended", () => {
    foreground.begin()
    foreground.begin()
    expect(foreground.lately(0)).toBe(true)
    foreground.end()
    // One still being served.
    expect(foreground.lately(0)).toBe(true)
    foreground.end()
    expect(foreground.lately(60_000)).toBe(true)
    expect(foreground.lately(0)).toBe(false)
  })
})
