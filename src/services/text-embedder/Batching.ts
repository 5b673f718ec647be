/**
 * How texts are grouped into one model call. A call pads every text to the longest one,
 * so it costs about (texts × cost of the longest), and a text's cost grows with its length
 * up to 2,000 characters (the model's 256-token limit). Batching saves much per text for
 * short texts (queries, titles) and next to nothing for long ones, and a fixed count of 32
 * would let one call of long descriptions run for seconds, which every query arriving during
 * a catalog push then waits for. Calls are therefore filled up to an estimated duration
 * (`estimatedMs`): short texts still share calls, a long text goes alone, and a query waits
 * at most about one budget (or one long text) for a thread to come free.
 */
export const MAX_BATCH_TEXTS = 32
export const BATCH_BUDGET_MS = 100

/**
 * The budget of a document call while shoppers are searching (a query came in the last
 * QUERY_WINDOW_MS): a query waits for the call a thread is running, and during a bulk push
 * every thread is running one, so a shorter call is a shorter wait. Documents are planned in
 * requests of this size, which the pool packs up to BATCH_BUDGET_MS when no
 * shopper is waiting, so throughput is kept when nobody searches.
 */
export const SHARED_BUDGET_MS = 30
export const QUERY_WINDOW_MS = 2_000

/** Estimated per-text cost in a call whose longest text has `length` chars (fitted to measured costs). */
export const estimatedMs = (length: number): number =>
  1 +
  0.06 * Math.min(length, 300) +
  0.065 * Math.min(Math.max(length - 300, 0), 700) +
  0.027 * Math.max(length - 1_000, 0)

/** Whether a call of `count` texts, the longest `longest` chars, stays within budget. */
export const withinBudget = (count: number, longest: number, budgetMs = BATCH_BUDGET_MS): boolean =>
  count <= MAX_BATCH_TEXTS && count * estimatedMs(longest) <= budgetMs

/** Positions of `texts` grouped into calls: shortest first, so similar lengths share one. */
export const planBatches = (
  texts: ReadonlyArray<string>,
  budgetMs = BATCH_BUDGET_MS
): ReadonlyArray<ReadonlyArray<number>> => {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length)
  const batches: Array<Array<number>> = []
  let current: Array<number> = []
  for (const i of order) {
    // Sorted ascending, so this text is the longest of the batch it joins.
    if (current.length > 0 && !withinBudget(current.length + 1, texts[i].length, budgetMs)) {
      batches.push(current)
      current = []
    }
    current.push(i)
  }
  if (current.length > 0) batches.push(current)
  return batches
}

/** The longest text of a queued request, for packing several requests into one call. */
export const longestOf = (texts: ReadonlyArray<string>): number =>
  texts.reduce((longest, text) => Math.max(longest, text.length), 0)
