import { performance } from "node:perf_hooks"

/**
 * Whether this thread's event loop has been busy for most of the last moment: its utilization
 * (time spent running code, not waiting for I/O) over windows of at least `windowMs`, read
 * lazily when asked, so an idle process runs no timer for it.
 */
export const eventLoopBusy = (threshold = 0.8, windowMs = 250): (() => boolean) => {
  let last = performance.eventLoopUtilization()
  let busy = false
  return () => {
    const now = performance.eventLoopUtilization()
    const window = performance.eventLoopUtilization(now, last)
    if (window.idle + window.active >= windowMs) {
      busy = window.utilization >= threshold
      last = now
    }
    return busy
  }
}
