import { Effect } from "effect"

/**
 * Runs effects one at a time per key, in arrival order, in this process: a read-modify-write
 * (a PATCH) must not interleave with another write of the same product. Keys with nothing
 * waiting take no memory.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>()

  with<A, E, R>(key: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return Effect.suspend(() => {
      const previous = this.tails.get(key) ?? Promise.resolve()
      let release!: () => void
      const tail = previous.then(() => new Promise<void>((resolve) => (release = resolve)))
      this.tails.set(key, tail)
      return Effect.promise(() => previous).pipe(
        Effect.zipRight(effect),
        Effect.ensuring(Effect.sync(() => {
          // `release` is set once `previous` settled, which the zipRight waited for; an interrupted
          // wait must still let the next in line through, once `previous` is done.
          void previous.then(() => release())
          if (this.tails.get(key) === tail) this.tails.delete(key)
        }))
      )
    })
  }
}
