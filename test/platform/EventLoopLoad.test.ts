import { describe, expect, it } from "vitest"
import { eventLoopBusy } from "../../src/platform/EventLoopLoad.js"

const spin = (ms: number) => {
  for (const end = performance.now() + ms; performance.now() < end; ) {
    // busy: the event loop gets no turn
  }
}
const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("eventLoopBusy", () => {
  it("is busy after a stretch of work, for its hold time, and idle after an idle stretch", async () => {
    const busy = eventLoopBusy(0.8, 100, 500)
    await idle(150)
    expect(busy()).toBe(false)
    spin(150)
    expect(busy()).toBe(true)
    // Within the hold time it stays busy, though the loop has been waiting since.
    await idle(50)
    expect(busy()).toBe(true)
    await idle(700)
    expect(busy()).toBe(false)
  })
})
