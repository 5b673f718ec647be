/**
 * Groups concurrent submissions into one call, for work that costs far less per item in one
 * go than one by one: Redis writes in one round trip (a pipeline, a BullMQ addBulk), or job
 * handling with one embedding call and one index upsert for many products.
 *
 * A submission joins the open batch. The batch is sent when it reaches `maxBatch`, or else
 * `lingerMs` after its first item; with no linger (the default) once the current event-loop
 * turn's I/O callbacks have run (setImmediate), so a lone call waits on no timer while the
 * calls of one turn, many requests reaching the write together, share one round trip.
 * Batches run side by side. Each caller gets its own item's outcome: `run` settles every item
 * on its own, and a `run` that throws fails every item of its batch with that error.
 */
export type Settled<B> = { readonly ok: true; readonly value: B } | { readonly ok: false; readonly error: unknown }

export interface BatcherOptions {
  readonly maxBatch: number
  /** How long the first item of a batch waits for company; default: only to the end of this turn. */
  readonly lingerMs?: number
}

export interface Batcher<A, B> {
  readonly submit: (item: A) => Promise<B>
  /** Sends the open batch now and waits for every batch in flight (before closing what `run` uses). */
  readonly flush: () => Promise<void>
}

interface Pending<A, B> {
  readonly item: A
  readonly resolve: (value: B) => void
  readonly reject: (error: unknown) => void
}

export const makeBatcher = <A, B>(
  run: (items: ReadonlyArray<A>) => Promise<ReadonlyArray<Settled<B>>>,
  options: BatcherOptions
): Batcher<A, B> => {
  const lingerMs = options.lingerMs ?? 0
  let open: Array<Pending<A, B>> = []
  let cancelScheduled: (() => void) | undefined
  const inFlight = new Set<Promise<void>>()

  const schedule = () => {
    if (lingerMs > 0) {
      const timer = setTimeout(send, lingerMs)
      cancelScheduled = () => clearTimeout(timer)
    } else {
      const immediate = setImmediate(send)
      cancelScheduled = () => clearImmediate(immediate)
    }
  }

  const send = () => {
    cancelScheduled?.()
    cancelScheduled = undefined
    const batch = open
    open = []
    if (batch.length === 0) return
    const done = Promise.resolve()
      .then(() => run(batch.map((p) => p.item)))
      .then(
        (outcomes) =>
          batch.forEach((p, i) => {
            const outcome = outcomes[i]
            if (outcome === undefined) p.reject(new Error("batch: no outcome for this item"))
            else if (outcome.ok) p.resolve(outcome.value)
            else p.reject(outcome.error)
          }),
        (error: unknown) => batch.forEach((p) => p.reject(error))
      )
      .finally(() => inFlight.delete(done))
    inFlight.add(done)
  }

  return {
    submit: (item) =>
      new Promise<B>((resolve, reject) => {
        open.push({ item, resolve, reject })
        if (open.length >= options.maxBatch) send()
        else if (cancelScheduled === undefined) schedule()
      }),
    flush: async () => {
      send()
      await Promise.all([...inFlight])
    }
  }
}
