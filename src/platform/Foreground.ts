import { performance } from "node:perf_hooks"

/**
 * The requests someone waits on (a search, a product page, a write of one product), as this
 * process serves them: background work (a bulk push's indexing) asks whether any came lately
 * and takes a smaller share of the process, of Qdrant and of Redis while they do. Process-wide
 * on purpose, like the event loop it describes.
 */
let active = 0
let lastEnded = Number.NEGATIVE_INFINITY

export const foreground = {
  begin: (): void => {
    active++
  },
  end: (): void => {
    active--
    lastEnded = performance.now()
  },
  /** Whether one is being served, or one ended within `withinMs`. */
  lately: (withinMs = 1_000): boolean => active > 0 || performance.now() - lastEnded < withinMs
}
