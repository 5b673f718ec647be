import { Scheduler } from "effect"

/**
 * How many times in a row the fibers' run queue is drained from the microtask queue before the
 * event loop gets a turn. Effect's default (2048) suits short bursts; under a bulk push the
 * indexing fibers are runnable for seconds, and a search request would wait that long for the
 * event loop to read it. A few drains, then setImmediate: I/O is served every few milliseconds
 * of work.
 */
const DRAINS_BEFORE_IO = 1

const runner = Scheduler.SchedulerRunner.cached((depth, drain) => {
  if (depth >= DRAINS_BEFORE_IO) setImmediate(() => drain(0))
  else queueMicrotask(() => drain(depth + 1))
})

/** When a fiber yields: after as many operations as Effect's default scheduler allows. */
const yielding = new Scheduler.MixedScheduler(DRAINS_BEFORE_IO)

/** The api's and the worker's scheduler: Effect's, with the event loop served between drains. */
export const ioFairScheduler: Scheduler.Scheduler = Scheduler.make(
  (task, priority, fiber) => runner(fiber).scheduleTask(task, priority),
  (fiber) => yielding.shouldYield(fiber)
)
