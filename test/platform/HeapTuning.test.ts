import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercent, HeapTuningError } from "../../src/platform/HeapTuning.js"

const run = promisify(execFile)

const churn = async (percent: string) => {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "test/platform/fixtures/heapChurn.ts"], {
    env: { ...process.env, HEAP_GROWING_PERCENT: percent }
  })
  return JSON.parse(stdout) as { percent: number; peakHeapTotal: number }
}

describe("heap tuning", () => {
  it("reads HEAP_GROWING_PERCENT: default when unset or empty, whole numbers only", () => {
    expect(heapGrowingPercent({})).toBe(DEFAULT_HEAP_GROWING_PERCENT)
    expect(heapGrowingPercent({ HEAP_GROWING_PERCENT: " " })).toBe(DEFAULT_HEAP_GROWING_PERCENT)
    expect(heapGrowingPercent({ HEAP_GROWING_PERCENT: "0" })).toBe(0)
    expect(heapGrowingPercent({ HEAP_GROWING_PERCENT: "35" })).toBe(35)
    for (const bad of ["-5", "1.5", "twenty", "20%"]) {
      expect(() => heapGrowingPercent({ HEAP_GROWING_PERCENT: bad })).toThrow(HeapTuningError)
      expect(() => heapGrowingPercent({ HEAP_GROWING_PERCENT: bad })).toThrow(
        /HEAP_GROWING_PERCENT must be a whole number/
      )
    }
  })

  it("keeps a churning heap well below the size V8's default growth lets it reach", async () => {
    const [loose, tuned] = await Promise.all([churn("0"), churn(String(DEFAULT_HEAP_GROWING_PERCENT))])
    expect(loose.percent).toBe(0)
    expect(tuned.percent).toBe(DEFAULT_HEAP_GROWING_PERCENT)
    // Well below, with room for V8's run-to-run variation.
    expect(tuned.peakHeapTotal).toBeLessThan(loose.peakHeapTotal * 0.7)
  }, 60_000)
})
