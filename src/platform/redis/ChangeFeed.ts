import { randomBytes } from "node:crypto"
import { Deferred, type Duration, Effect, type Scope, Stream, SubscriptionRef } from "effect"
import type { Redis } from "ioredis"
import { connectFailFast } from "./FailFastRedis.js"
import { BackendFailure } from "../BackendFailure.js"

/**
 * Replicates in-memory state across processes through one Redis Stream: writers `publish`
 * changes, every process `follow`s them and applies each change once, in stream order.
 *
 * The stream is a change log, not the record: a follower starts (and recovers from any doubt)
 * by rebuilding from the source of truth, then applies the entries published after the point
 * it captured first. Writers must therefore update the source of truth before publishing.
 *
 * Entry ids are `0-1`, `0-2`, … (`XADD 0-*`), so a follower sees at once when an entry it has
 * not applied was trimmed away: the next id it reads is not its last plus one. Each entry also
 * carries a random nonce, so after a reconnection the follower can prove the entry it applied
 * last is still in the stream unchanged; a Redis that restarted without (all of) its data
 * reuses ids for different entries, and then only a rebuild is safe.
 */

export class ChangeFeedError extends BackendFailure("ChangeFeedError") {}

/** One change: values the publisher encodes (Buffers travel byte-exact, e.g. Float32 vectors). */
export type FeedEntry = ReadonlyArray<Buffer | string>

export interface ChangeFeedOptions {
  readonly redisUrl: string
  readonly key: string
  /** Entries kept for followers that fall behind (approximate: Redis trims whole nodes); default 20,000. */
  readonly maxLen?: number
  /** How long one read waits for entries before the follower re-checks the stream; default 5 s. */
  readonly idleCheckMs?: number
  /** Entries applied per read; default 500. */
  readonly readCount?: number
}

export interface FollowHandlers<E> {
  /** Re-creates the follower's state from the source of truth (replacing it, not adding to it). */
  readonly rebuild: Effect.Effect<void, E>
  /** Applies entries in stream order; a malformed entry is the handler's to log and skip. */
  readonly apply: (entries: ReadonlyArray<ReadonlyArray<Buffer>>) => Effect.Effect<void>
}

export interface Following {
  /** Completes once the first rebuild is done (and stays complete). */
  readonly synced: Effect.Effect<void>
  /** Whether this follower has applied entry `id` (an id `publish` returned) within `timeout`. */
  readonly awaitApplied: (id: string, timeout: Duration.DurationInput) => Effect.Effect<boolean>
  /** Entries published but not applied here yet. */
  readonly lag: Effect.Effect<number, ChangeFeedError>
}

export interface ChangeFeed {
  /** Appends the entries (at least one) atomically and contiguously; returns the id of the last one. */
  readonly publish: (entries: ReadonlyArray<FeedEntry>) => Effect.Effect<string, ChangeFeedError>
  /** Starts a follower fiber for the scope's lifetime; its initial rebuild runs in the background. */
  readonly follow: <E>(handlers: FollowHandlers<E>) => Effect.Effect<Following, ChangeFeedError, Scope.Scope>
}

const NONCE_BYTES = 8
const MAX_BACKOFF_MS = 5_000

interface Head {
  readonly seq: number
  readonly nonce: Buffer | undefined
}

const seqOf = (id: string | Buffer): number => {
  const text = id.toString()
  return Number(text.slice(text.indexOf("-") + 1))
}
const idOf = (seq: number): string => `0-${seq}`

/** An entry's values without the nonce: stream fields are `n`, nonce, `0`, v0, `1`, v1, … */
const valuesOf = (fields: ReadonlyArray<Buffer>): Array<Buffer> => fields.filter((_, i) => i >= 3 && i % 2 === 1)
const nonceOf = (fields: ReadonlyArray<Buffer>): Buffer | undefined => fields[1]

const failure = (what: string) => (cause: unknown) =>
  new ChangeFeedError({ message: `change feed: ${what} failed: ${String(cause)}`, cause })

/**
 * The follower's own connection: XREAD BLOCK holds it for seconds, so it cannot share the
 * command client; the follow loop (not ioredis) decides when to try again.
 */
const connectBlocking = (url: string, idleCheckMs: number) =>
  connectFailFast(url, { commandTimeoutMs: idleCheckMs + 5_000, blocking: true }, failure("connecting the follower"))

/** The newest entry's number and nonce; 0 when the stream is empty or absent. */
const headOf = (client: Redis, key: string): Effect.Effect<Head, ChangeFeedError> =>
  Effect.tryPromise({
    try: () => client.xrevrangeBuffer(key, "+", "-", "COUNT", 1),
    catch: failure("reading the head")
  }).pipe(
    Effect.map(([newest]) =>
      newest === undefined ? { seq: 0, nonce: undefined } : { seq: seqOf(newest[0]), nonce: nonceOf(newest[1]) }
    )
  )

export const makeChangeFeed = (options: ChangeFeedOptions): Effect.Effect<ChangeFeed, ChangeFeedError, Scope.Scope> =>
  Effect.gen(function* () {
    const { key, redisUrl } = options
    const maxLen = options.maxLen ?? 20_000
    const idleCheckMs = options.idleCheckMs ?? 5_000
    const readCount = options.readCount ?? 500
    const client = yield* connectFailFast(redisUrl, { commandTimeoutMs: 5_000 }, failure("connecting"))

    const publish = (entries: ReadonlyArray<FeedEntry>) =>
      Effect.tryPromise({
        try: async () => {
          const nonce = randomBytes(NONCE_BYTES)
          const tx = client.multi()
          for (const values of entries) {
            tx.xadd(key, "MAXLEN", "~", maxLen, "0-*", "n", nonce, ...values.flatMap((value, i) => [String(i), value]))
          }
          const replies = await tx.exec()
          if (replies === null) throw new Error("transaction aborted")
          const ids = replies.map(([error, id]) => {
            if (error) throw error
            return id as string
          })
          return ids[ids.length - 1]
        },
        catch: failure("publish")
      })

    const follow = <E>(handlers: FollowHandlers<E>) =>
      Effect.gen(function* () {
        const reader = yield* connectBlocking(redisUrl, idleCheckMs)
        // Every dropped connection: what we read after it may come from a Redis that lost data,
        // until `intact` (or a rebuild) has checked the stream again.
        let closes = 0
        let checkedCloses = 0
        reader.on("close", () => {
          closes++
        })
        const applied = yield* SubscriptionRef.make(0)
        const synced = yield* Deferred.make<void>()
        // The head a rebuild starts from, with the connection drops seen before it was read.
        const capture = Effect.suspend(() => {
          const seenCloses = closes
          return Effect.map(headOf(reader, key), (head) => ({ head, seenCloses }))
        })
        // The first one is captured before the caller's layer is up, so every entry published
        // once it is up is read after the first rebuild, even one the rebuild cannot see.
        let initial: { readonly head: Head; readonly seenCloses: number } | undefined = yield* capture
        let last: Head = { seq: 0, nonce: undefined }

        const rebuild = Effect.gen(function* () {
          const { head, seenCloses } = initial ?? (yield* capture)
          initial = undefined
          yield* handlers.rebuild.pipe(Effect.mapError(failure("rebuild")))
          last = head
          checkedCloses = seenCloses
          yield* SubscriptionRef.set(applied, head.seq)
          yield* Deferred.succeed(synced, undefined)
        })
        let rebuildNeeded = true
        const distrust = (why: string) =>
          Effect.logWarning(`change feed ${key}: ${why}, rebuilding`).pipe(
            Effect.andThen(() => {
              rebuildNeeded = true
            })
          )

        /** Whether the entry applied last is still in the stream, unchanged. */
        const intact = (afterReconnect: boolean) =>
          last.seq === 0
            ? // Nothing applied yet: nothing proves that no entry was lost while we were away.
              Effect.succeed(!afterReconnect)
            : Effect.tryPromise({
                try: () => reader.xrangeBuffer(key, idOf(last.seq), idOf(last.seq)),
                catch: failure("verify")
              }).pipe(
                Effect.map(
                  ([entry]) =>
                    entry !== undefined && last.nonce !== undefined && nonceOf(entry[1])?.equals(last.nonce) === true
                )
              )

        const step = Effect.gen(function* () {
          if (rebuildNeeded) {
            yield* rebuild
            rebuildNeeded = false
            return
          }
          if (closes !== checkedCloses) {
            const seenCloses = closes
            if (!(yield* intact(true))) return yield* distrust("the stream changed while disconnected")
            checkedCloses = seenCloses
          }
          const read = yield* Effect.tryPromise({
            try: () => reader.xreadBuffer("COUNT", readCount, "BLOCK", idleCheckMs, "STREAMS", key, idOf(last.seq)),
            catch: failure("read")
          })
          const entries = read?.[0]?.[1] ?? []
          if (entries.length === 0) {
            if (!(yield* intact(false))) yield* distrust("the entry applied last is gone or changed")
            return
          }
          // A gap means entries this process never applied were trimmed: apply the run before it, then rebuild.
          let run = 0
          while (run < entries.length && seqOf(entries[run][0]) === last.seq + run + 1) run++
          if (run > 0) {
            // A handler that died left its state unknown.
            const died = yield* handlers.apply(entries.slice(0, run).map(([, fields]) => valuesOf(fields))).pipe(
              Effect.as(false),
              Effect.catchAllCause((cause) =>
                Effect.logError(`change feed ${key}: applying entries died`, cause).pipe(Effect.as(true))
              )
            )
            if (died) return yield* distrust("applying entries failed")
            const [id, fields] = entries[run - 1]
            last = { seq: seqOf(id), nonce: nonceOf(fields) }
            yield* SubscriptionRef.set(applied, last.seq)
          }
          if (run < entries.length)
            yield* distrust(`entries after ${idOf(last.seq)} were trimmed before this process applied them`)
        })

        // Redis going away is expected: warn once per outage, back off, resume where we were.
        let failures = 0
        const loop = step.pipe(
          Effect.andThen(() =>
            failures === 0
              ? Effect.void
              : Effect.logInfo(`change feed ${key}: following again`).pipe(
                  Effect.andThen(() => {
                    failures = 0
                  })
                )
          ),
          Effect.catchAllCause((cause) => {
            failures++
            return (
              failures === 1 ? Effect.logWarning(`change feed ${key}: follower failed, retrying`, cause) : Effect.void
            ).pipe(Effect.andThen(Effect.sleep(Math.min(MAX_BACKOFF_MS, 100 * 2 ** (failures - 1)))))
          }),
          Effect.forever
        )
        yield* Effect.forkScoped(loop)

        return {
          synced: Deferred.await(synced),
          awaitApplied: (id, timeout) =>
            applied.changes.pipe(
              Stream.filter((seq) => seq >= seqOf(id)),
              Stream.runHead,
              Effect.timeoutTo({ duration: timeout, onSuccess: () => true, onTimeout: () => false })
            ),
          lag: Effect.zipWith(headOf(client, key), SubscriptionRef.get(applied), (head, seq) =>
            Math.max(0, head.seq - seq)
          )
        } satisfies Following
      })

    return { publish, follow }
  })
