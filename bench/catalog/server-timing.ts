/** The api's Server-Timing header, gathered over a run of requests. */
import { parseServerTiming } from "../../src/platform/ServerTiming.js"
import { ms, summarize } from "./stats.js"

/** Adds the `i`-th answer's Server-Timing stages: each stage's durations, 0 where it did not run. */
export const addStages = (stages: Map<string, Array<number>>, i: number, header: string) => {
  const timing = parseServerTiming(header)
  for (const stage of timing.keys()) if (!stages.has(stage)) stages.set(stage, new Array<number>(i).fill(0))
  for (const [stage, durations] of stages) durations.push(timing.get(stage) ?? 0)
}

/** "embed 9.1 / 14, index 40 / 93, …": per stage of the api's Server-Timing, its mean and p99 in ms. */
export const stageBreakdown = (stages: ReadonlyMap<string, ReadonlyArray<number>>) =>
  [...stages]
    .map(([stage, durations]) => {
      const s = summarize(durations)
      return `${stage} ${ms(s.mean)} / ${ms(s.p99)}`
    })
    .join(", ")
