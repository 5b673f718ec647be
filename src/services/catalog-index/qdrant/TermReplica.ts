import { columnsOf, productIdOf, textOf } from "./Layout.js"
import { randomUUID } from "node:crypto"
import { Duration, Effect, Either, Schema, type Scope } from "effect"
import { compiledDecoder } from "../../../domain/CompiledCheck.js"
import { IndexError } from "../CatalogIndex.js"
import { IndexText, Payload } from "../../../model/IndexDocument.js"
import { type ChangeFeedError, makeChangeFeed } from "../../../platform/redis/ChangeFeed.js"
import type { QdrantClient, Schemas } from "@qdrant/js-client-rest"
import { call } from "./Request.js"
import { COLUMNS_KEY, PRODUCT_KEY, SITE_KEY, TEXT_KEY, TEXT_VECTOR, VERSION_KEY } from "./Layout.js"
import { pointId } from "./PointIds.js"
import { type Holding, TermMemory } from "./SiteTerms.js"
import type { DocumentTerms } from "./SparseText.js"

/** One write to the index, as its words and columns: what the term memory of every process applies. */
export const TermChange = Schema.Union(
  Schema.TaggedStruct("Put", {
    siteId: Schema.Number,
    productId: Schema.String,
    version: Schema.optional(Schema.Number),
    text: IndexText,
    payload: Payload,
    /** Whether the point has a text vector (absent from older writers: taken as not). */
    embedded: Schema.optional(Schema.Boolean)
  }),
  Schema.TaggedStruct("Remove", { siteId: Schema.Number, productIds: Schema.Array(Schema.String) })
)
export type TermChange = typeof TermChange.Type
// Every process decodes every write's change: the compiled check spares valid ones Effect's
// interpreter. Its encoded form is the type itself (plain JSON values), so it is written with
// JSON.stringify alone.
const checkChange = compiledDecoder(TermChange)
const decodeChange = (json: string | undefined): TermChange => Either.getOrThrow(checkChange(JSON.parse(json ?? "")))

/** What a change left in memory: the point a put wrote and the holding it has now; null for a removal. */
type Applied = { readonly siteId: number; readonly pointId: string; readonly holding: Holding | undefined } | null

const apply = (memory: TermMemory, change: TermChange, analysed?: DocumentTerms): Applied => {
  const site = memory.site(change.siteId)
  if (change._tag === "Remove") {
    for (const productId of change.productIds) site.remove(pointId(change.siteId, productId))
    return null
  }
  const id = pointId(change.siteId, change.productId)
  return { siteId: change.siteId, pointId: id, holding: site.put(id, change, analysed) }
}

const applyAll = (
  memory: TermMemory,
  changes: ReadonlyArray<TermChange>,
  analysed: ReadonlyArray<DocumentTerms | undefined> | undefined
): Array<Applied> => changes.map((change, i) => apply(memory, change, analysed?.[i]))

/**
 * This process's TermMemory (see SiteTerms.ts), kept in step with the collection. Qdrant is the
 * source of truth: the memory is filled from the collection's points at start, then every write
 * this or another process acknowledges reaches it through `written`.
 */
export interface TermReplica {
  /** The current memory (a rebuild replaces it whole, so searches read one consistent copy). */
  readonly memory: () => TermMemory
  /**
   * Called once Qdrant acknowledged the write: in effect here at once, and in every process soon
   * after. `analysed`: each Put's terms, as the writer computed them for its points.
   */
  readonly written: (
    changes: ReadonlyArray<TermChange>,
    analysed?: ReadonlyArray<DocumentTerms | undefined>
  ) => Effect.Effect<void, IndexError>
  /** Completes once the memory has been filled from the collection. */
  readonly synced: Effect.Effect<void>
  /** Changes published but not applied here yet (0 without a feed). */
  readonly lag: Effect.Effect<number, IndexError>
}

const PAGE = 1_000

/** Where the points are: the writer's client (a start-up read, allowed its long timeout). */
interface Collection {
  readonly writer: QdrantClient
  readonly collection: string
}

/**
 * Every page of the collection's points `request` selects, each handed to `f` as it comes. The
 * writer's client: a start-up read, allowed its long timeout; a collection just created on a
 * cluster may not be readable yet on every node (settling).
 */
const eachPage = (
  q: Collection,
  request: Omit<Schemas["ScrollRequest"], "offset">,
  f: (points: ReadonlyArray<Schemas["Record"]>) => void
): Effect.Effect<void, IndexError> =>
  Effect.gen(function* () {
    let offset: string | number | undefined
    do {
      const page = yield* call(
        "scroll",
        () => q.writer.scroll(q.collection, { ...request, ...(offset !== undefined && { offset }) }),
        { settling: true }
      )
      f(page.points)
      const next = page.next_page_offset
      offset = typeof next === "string" || typeof next === "number" ? next : undefined
    } while (offset !== undefined)
  })

/** The ids of the points without a text vector (pushed, not embedded yet): usually none or few. */
const pointsWithoutText = (q: Collection): Effect.Effect<Set<string>, IndexError> => {
  const ids = new Set<string>()
  const request = { filter: { must_not: [{ has_vector: TEXT_VECTOR }] }, limit: PAGE * 10, with_payload: false }
  return eachPage(q, { ...request, with_vector: false }, (points) => {
    for (const point of points) ids.add(String(point.id))
  }).pipe(Effect.as(ids))
}

/** Every point's words, read from the collection page by page (each page applied as it comes). */
const fromCollection = (q: Collection): Effect.Effect<TermMemory, IndexError> =>
  Effect.gen(function* () {
    const memory = new TermMemory()
    const textless = yield* pointsWithoutText(q)
    const words = [SITE_KEY, PRODUCT_KEY, TEXT_KEY, VERSION_KEY, COLUMNS_KEY]
    yield* eachPage(q, { limit: PAGE, with_payload: words, with_vector: false }, (points) => {
      for (const point of points) {
        const version = point.payload?.[VERSION_KEY]
        const text = textOf(point.payload)
        if (text === undefined) continue
        const siteId = Number(point.payload?.[SITE_KEY])
        const productId = productIdOf(point.payload)
        memory.site(siteId).put(pointId(siteId, productId), {
          productId,
          text,
          payload: columnsOf(point.payload),
          version: typeof version === "number" ? version : undefined,
          embedded: !textless.has(String(point.id))
        })
      }
    })
    return memory
  })

/** One process writes and reads (the embedded topology with QDRANT_URL): filled before the index serves. */
export const localTermReplica = (q: Collection): Effect.Effect<TermReplica, IndexError> =>
  Effect.map(fromCollection(q), (memory) => ({
    memory: () => memory,
    written: (changes, analysed) => Effect.sync(() => void applyAll(memory, changes, analysed)),
    synced: Effect.void,
    lag: Effect.succeed(0)
  }))

const indexError = (error: ChangeFeedError) => new IndexError({ message: error.message, cause: error.cause })

/**
 * Many processes (the distributed topology): each write is published on a Redis change feed
 * once Qdrant acknowledged it, and every process applies the feed in order; a process rebuilds
 * from the collection at start and whenever it cannot trust the feed (see ChangeFeed.ts). The
 * writing process waits (up to `applyTimeout`) until its own memory holds the write.
 */
export const feedTermReplica = (
  q: Collection,
  redisUrl: string,
  key: string,
  applyTimeout: Duration.DurationInput = Duration.seconds(10)
): Effect.Effect<TermReplica, IndexError, Scope.Scope> =>
  Effect.gen(function* () {
    const feed = yield* makeChangeFeed({ redisUrl, key }).pipe(Effect.mapError(indexError))
    let memory = new TermMemory()
    // This process's changes, applied here before they were published, by the token published
    // beside each: the holding each left (null: a removal). When one comes back through the feed
    // and its point still holds that very holding, nothing came between, so the feed order
    // agrees with what was applied: it is not decoded again (a writer's most common entry).
    const origin = randomUUID()
    let sequence = 0
    const ahead = new Map<string, Applied>()
    const applyEntry = (values: ReadonlyArray<Buffer>) => {
      const token = values[1]?.toString()
      const mine = token === undefined ? undefined : ahead.get(token)
      if (mine !== undefined) {
        ahead.delete(token!)
        if (mine !== null && memory.site(mine.siteId).holding(mine.pointId) === mine.holding) return
      }
      apply(memory, decodeChange(values[0]?.toString()))
    }
    const following = yield* feed
      .follow({
        rebuild: Effect.gen(function* () {
          memory = yield* fromCollection(q)
          ahead.clear()
          yield* Effect.logInfo("term memory rebuilt", { points: memory.points })
        }),
        apply: (entries) =>
          Effect.suspend(() => {
            const skipped: Array<string> = []
            for (const values of entries) {
              try {
                applyEntry(values)
              } catch (error) {
                skipped.push(String(error))
              }
            }
            return Effect.forEach(skipped, (error) => Effect.logWarning("term memory: change skipped", error), {
              discard: true
            })
          })
      })
      .pipe(Effect.mapError(indexError))
    return {
      memory: () => memory,
      // Applied here at once with the writer's own analysis, then in feed order like every other
      // process (skipped where nothing came between, see `ahead`): the feed order decides,
      // whatever was applied here first.
      written: (changes, analysed) =>
        changes.length === 0
          ? Effect.void
          : Effect.gen(function* () {
              const tokens = applyAll(memory, changes, analysed).map((applied) => {
                const token = `${origin}:${sequence++}`
                ahead.set(token, applied)
                return token
              })
              const id = yield* feed.publish(changes.map((change, i) => [JSON.stringify(change), tokens[i]])).pipe(
                Effect.mapError(indexError),
                Effect.tapError(() => Effect.sync(() => tokens.forEach((token) => ahead.delete(token))))
              )
              if (!(yield* following.awaitApplied(id, applyTimeout)))
                yield* Effect.logWarning(
                  `term memory: a write was not applied here within ${Duration.format(applyTimeout)}`
                )
            }),
      synced: following.synced,
      lag: following.lag.pipe(Effect.mapError(indexError))
    }
  })
