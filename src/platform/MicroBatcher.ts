/**
 * Coalesces calls made in the same turn of the event loop into one batch, for Redis writes
 * that cost far less per item in one round trip (a pipeline, a BullMQ addBulk) than one by one.
 *
 * A call joins the open batch; the batch is sent once the current turn's I/O callbacks have run
 * (setImmediate), or at once when it reaches `maxBatch`. Nothing waits on a timer: a lone call
 * is sent on the same turn, and under load, when many requests reach the write together, they
 * share one round trip. Each caller gets its own item's outcome: `run` settles every item on
 * its own, and a `run` that throws fails every item of its batch with that error.
 */
export type Settled<B> = { readonly ok: true; readonly value: B } | { readonly ok: false; readonly error: unknown }

export interface MicroBatcher<A, B> {
  readonly submit: (item: A) => Promise<B>
  /** Sends the open batch now and waits for every batch in flight (before closing the connection). */
  readonly flush: () => Promise<void>
}

interface Pending<A, B> {
  readonly item: A
  readonly resolve: (value: B) => void
  readonly reject: (error: unknown) => void
}

export const makeMicroBatcher = <A, B>(
  run: (items: ReadonlyArray<A>) => Promise<ReadonlyArray<Settled<B>>>,
  options: { readonly maxBatch: number }
): MicroBatcher<A, B> => {
  let open: Array<Pending<A, B>> = []
  let scheduled: ReturnType<typeof setImmediate> | undefined
  const inFlight = new Set<Promise<void>>()

  const send = () => {
    if (scheduled !== undefined) clearImmediate(scheduled)
    scheduled = undefined
    const batch = open
    open = []
    if (batch.length === 0) return
    const done = run(batch.map((p) => p.item)).then(
      (outcomes) =>
        batch.forEach((p, i) => {
          const outcome = outcomes[i]
          if (outcome === undefined) p.reject(new Error("micro-batch: no outcome for this item"))
          else if (outcome.ok) p.resolve(outcome.value)
          else p.reject(outcome.error)
        }),
      (error: unknown) => batch.forEach((p) => p.reject(error))
    ).finally(() => inFlight.delete(done))
    inFlight.add(done)
  }

  return {
    submit: (item) =>
      new Promise<B>((resolve, reject) => {
        open.push({ item, resolve, reject })
        if (open.length >= options.maxBatch) send()
        else if (scheduled === undefined) scheduled = setImmediate(send)
      }),
    flush: async () => {
      send()
      await Promise.all([...inFlight])
    }
  }
}
