import * as v8 from "node:v8"

/**
 * How far V8 lets the main heap grow past what survived the last full collection, in percent.
 * V8's own factor (up to ×4 while a catalog push allocates fast) leaves room for a large catalog's
 * worth of garbage. A tight bound costs CPU where it hurts: each full collection marks the whole
 * index on the cores the push and the model share, and searches wait behind it. The default sits
 * between the two. 0 leaves V8's default.
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50

export class HeapTuningError extends Error {}

const HEAP_GROWING_PERCENT = "HEAP_GROWING_PERCENT"

/** Reads HEAP_GROWING_PERCENT (a whole number ≥ 0; empty or unset: the default). */
export const heapGrowingPercent = (env: Record<string, string | undefined>): number => {
  const raw = env[HEAP_GROWING_PERCENT]?.trim()
  if (raw === undefined || raw === "") return DEFAULT_HEAP_GROWING_PERCENT
  if (!/^\d+$/.test(raw))
    throw new HeapTuningError(`HEAP_GROWING_PERCENT must be a whole number ≥ 0 (0: V8's default), got "${raw}"`)
  return Number(raw)
}

/**
 * Applies the setting to this process. The flag is read at each heap-limit computation, so
 * setting it at startup, before the catalog loads, is enough. Entry points (api, worker, bench)
 * call this first thing.
 */
export const tuneHeap = (env: Record<string, string | undefined> = process.env): number => {
  const percent = heapGrowingPercent(env)
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`)
  return percent
}
