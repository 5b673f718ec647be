import type { QdrantClient, Schemas } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import { IndexError } from "../CatalogIndex.js"
import type { IndexDocument, PayloadValue } from "../../../model/IndexDocument.js"
import { call } from "./Client.js"
import { COLUMNS_KEY, GRAMS_VECTOR, IMAGE_VECTOR, LEXICAL_VECTOR, ORDER_KEY, SITE_KEY, TERMS_KEY, TEXT_VECTOR, columnKey } from "./Layout.js"
import type { ResolvedOptions } from "./Options.js"

type IndexKind = "keyword" | "float" | "bool"

const kindOf = (value: PayloadValue): IndexKind | null => {
  if (typeof value === "string") return "keyword"
  if (typeof value === "number") return "float"
  if (typeof value === "boolean") return "bool"
  if (Array.isArray(value) && value.length > 0) return "keyword"
  return null
}

/**
 * Payload indexes of the columns. Columns are not declared anywhere (the catalog mapping
 * decides them), and Qdrant's facet and `order_by` need an index, so a column gets one the
 * first time a document carries a value for it: keyword for strings and string sets, float
 * for numbers, bool for booleans. Workers write and the api reads, so what this process
 * knows is a cache of the collection's schema, re-read when a column is not in it.
 */
export class ColumnIndexes {
  private readonly kinds = new Map<string, IndexKind>()

  constructor(private readonly client: QdrantClient, private readonly collection: string) {}

  /** The column's index kind, or undefined when no process has indexed it yet. */
  kind(column: string): Effect.Effect<IndexKind | undefined, IndexError> {
    if (this.kinds.has(column)) return Effect.succeed(this.kinds.get(column))
    return this.refresh().pipe(Effect.map(() => this.kinds.get(column)))
  }

  load(schema: Readonly<Record<string, Schemas["PayloadIndexInfo"] | undefined>>): void {
    const prefix = `${COLUMNS_KEY}.`
    for (const [key, info] of Object.entries(schema)) {
      if (!key.startsWith(prefix) || info === undefined) continue
      const kind = info.data_type
      if (kind !== "keyword" && kind !== "float" && kind !== "bool") continue
      const name = key.slice(prefix.length)
      this.kinds.set(name.startsWith('"') ? (JSON.parse(name) as string) : name, kind)
    }
  }

  /**
   * Creates the indexes `docs` need and the collection lacks. The schema is re-read first, so
   * a column another process indexed keeps its kind (re-creating with another kind would
   * rebuild the index) and concurrent writers agree on the first kind seen.
   */
  ensure(docs: ReadonlyArray<IndexDocument>): Effect.Effect<void, IndexError> {
    const missing = () => {
      const found = new Map<string, IndexKind>()
      for (const doc of docs) {
        for (const [column, value] of Object.entries(doc.payload)) {
          const kind = kindOf(value)
          if (kind !== null && !this.kinds.has(column) && !found.has(column)) found.set(column, kind)
        }
      }
      return found
    }
    if (missing().size === 0) return Effect.void
    return this.refresh().pipe(
      Effect.flatMap(() =>
        Effect.forEach(
          missing(),
          ([column, kind]) =>
            call(`creating the ${kind} index of ${column}`, () =>
              this.client.createPayloadIndex(this.collection, { field_name: columnKey(column), field_schema: kind, wait: true })
            ).pipe(Effect.tap(() => Effect.sync(() => this.kinds.set(column, kind)))),
          { concurrency: 4, discard: true }
        )
      )
    )
  }

  private refresh(): Effect.Effect<void, IndexError> {
    return call("reading the collection", () => this.client.getCollection(this.collection)).pipe(
      Effect.map((info) => this.load(info.payload_schema))
    )
  }
}

const vectorsConfig = (options: ResolvedOptions): Schemas["VectorsConfig"] => ({
  [TEXT_VECTOR]: { size: options.textDimension, distance: "Cosine" },
  // Several images per product as one multivector: max_sim scores a one-vector query by the
  // best of the product's images, the embedded index's rule.
  [IMAGE_VECTOR]: { size: options.imageDimension, distance: "Cosine", multivector_config: { comparator: "max_sim" } }
})

/** The collection exists with our layout, or is created with it. */
export const ensureCollection = (client: QdrantClient, options: ResolvedOptions) =>
  Effect.gen(function*() {
    const name = options.collection
    const { exists } = yield* call("checking the collection", () => client.collectionExists(name))
    if (!exists) {
      yield* call("creating the collection", () =>
        client.createCollection(name, {
          vectors: vectorsConfig(options),
          // No IDF modifier: Qdrant's IDF spans every site; the query carries per-site IDF (TermStatistics.ts).
          sparse_vectors: { [LEXICAL_VECTOR]: {}, [GRAMS_VECTOR]: {} }
        })
      ).pipe(
        // Another replica may have created it in between: that is as good.
        Effect.catchAll((error) =>
          call("checking the collection", () => client.collectionExists(name)).pipe(
            Effect.flatMap(({ exists }) => (exists ? Effect.void : Effect.fail(error)))
          )
        )
      )
      yield* call("creating the site index", () =>
        client.createPayloadIndex(name, { field_name: SITE_KEY, field_schema: { type: "keyword", is_tenant: true }, wait: true })
      )
      // Per-site document frequencies and lexical match counts, and browse's product-id order.
      for (const field of [TERMS_KEY, ORDER_KEY]) {
        yield* call(`creating the ${field} index`, () => client.createPayloadIndex(name, { field_name: field, field_schema: "integer", wait: true }))
      }
    }
    const info = yield* call("reading the collection", () => client.getCollection(name))
    const vectors = info.config.params.vectors as Record<string, { size?: number } | undefined> | undefined
    for (const [vector, size] of [[TEXT_VECTOR, options.textDimension], [IMAGE_VECTOR, options.imageDimension]] as const) {
      const actual = vectors?.[vector]?.size
      if (actual !== size) {
        return yield* Effect.fail(new IndexError({ message: `collection ${name}: vector "${vector}" has size ${actual}, configured ${size}` }))
      }
    }
    return info.payload_schema
  })
