import { performance } from "node:perf_hooks"

/**
 * Whether this thread's event loop has been busy lately: its utilisation (time spent running
 * code, not waiting for I/O) over windows of at least `windowMs`, read lazily when asked, so an
 * idle process runs no timer for it. A busy window keeps the answer for `holdMs`: a push that
 * pauses for a moment (a batch waiting on the network) is still a push.
 */
export const eventLoopBusy = (threshold = 0.8, windowMs = 250, holdMs = 1_000): (() => boolean) => {
  let last = performance.eventLoopUtilization()
  let busyUntil = -Infinity
  return () => {
    const now = performance.now()
    const current = performance.eventLoopUtilization()
    const window = performance.eventLoopUtilization(current, last)
    if (window.idle + window.active >= windowMs) {
      if (window.utilization >= threshold) busyUntil = now + holdMs
      last = current
    }
    return now < busyUntil
  }
}
