import type { QdrantClient, Schemas } from "@qdrant/js-client-rest"
import { Clock, Effect } from "effect"
import { IndexError } from "../CatalogIndex.js"
import type { IndexDocument, PayloadValue } from "../../../model/IndexDocument.js"
import { call } from "./Request.js"
import {
  COLUMNS_KEY,
  IMAGE_VECTOR,
  LEXICAL_VECTOR,
  ORDER_KEY,
  SITE_KEY,
  TERMS_KEY,
  TEXT_VECTOR,
  columnKey
} from "./Layout.js"
import type { ResolvedOptions } from "./QdrantOptions.js"

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
/**
 * How long a column found without an index is taken to have none. Facets ask for every facet
 * column on every search, and reading the collection for each would be most of a text search's
 * facet time; a column another process indexes meanwhile gets its facet this much later.
 */
const ABSENT_FOR_MS = 30_000

export class ColumnIndexes {
  private readonly kinds = new Map<string, IndexKind>()
  /** When each column was last found without an index. */
  private readonly absent = new Map<string, number>()
  /** Held while indexes are created (see `ensure`). */
  private readonly creating = Effect.unsafeMakeSemaphore(1)

  constructor(
    private readonly client: QdrantClient,
    private readonly collection: string
  ) {}

  /** The column's index kind, or undefined when no process has indexed it yet (as of ABSENT_FOR_MS ago at most). */
  kind(column: string): Effect.Effect<IndexKind | undefined, IndexError> {
    if (this.kinds.has(column)) return Effect.succeed(this.kinds.get(column))
    return Effect.gen(this, function* () {
      const now = yield* Clock.currentTimeMillis
      if (now - (this.absent.get(column) ?? -Infinity) < ABSENT_FOR_MS) return undefined
      yield* this.refresh()
      if (!this.kinds.has(column)) this.absent.set(column, now)
      return this.kinds.get(column)
    })
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
        // for…in: every write scans every column of its documents, and Object.entries would
        // allocate an array of pairs per document for that.
        for (const column in doc.payload) {
          if (this.kinds.has(column) || found.has(column)) continue
          const kind = kindOf(doc.payload[column])
          if (kind !== null) found.set(column, kind)
        }
      }
      return found
    }
    if (missing().size === 0) return Effect.void
    // One creation round at a time: concurrent batches of a push all carry the new columns, and
    // each would create them again (a push into a fresh collection made 112 creations of 33).
    // The next one finds them made.
    return this.creating.withPermits(1)(
      Effect.suspend(() => (missing().size === 0 ? Effect.void : this.create(missing)))
    )
  }

  private create(missing: () => Map<string, IndexKind>): Effect.Effect<void, IndexError> {
    return this.refresh().pipe(
      Effect.flatMap(() =>
        Effect.forEach(
          missing(),
          ([column, kind]) =>
            call(`creating the ${kind} index of ${column}`, () =>
              this.client.createPayloadIndex(this.collection, {
                field_name: columnKey(column),
                // Filtering, facets and order_by need the index; HNSW links per column value
                // (payload_m) would only slow indexing: searches narrow by site, not by column.
                field_schema: { type: kind, enable_hnsw: false },
                wait: true
              })
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

type VectorParams = Schemas["VectorParams"]
type SparseParams = Schemas["SparseVectorParams"]

/** The dense vectors: settings Qdrant fixes when the collection is created. */
const vectorParams = (options: ResolvedOptions): Record<string, VectorParams> => ({
  [TEXT_VECTOR]: { size: options.textDimension, distance: "Cosine" },
  // Several images per product as one multivector: max_sim scores a one-vector query by the
  // best of the product's images, the embedded index's rule. See Options for datatype and on_disk.
  [IMAGE_VECTOR]: {
    size: options.imageDimension,
    distance: "Cosine",
    datatype: options.imageDatatype,
    on_disk: options.imageOnDisk,
    multivector_config: { comparator: "max_sim" }
  }
})

// No IDF modifier: Qdrant's IDF spans every site; the query carries per-site IDF (SiteTerms.ts).
// (Collections made before typo variants were found in memory also hold a "grams" vector, unused.)
const SPARSE_VECTORS: Record<string, SparseParams> = { [LEXICAL_VECTOR]: {} }

/**
 * Every query filters by site, so there is no global graph (m 0) but one per site (payload_m
 * on the tenant index): Qdrant's multitenancy setup, which builds small graphs instead of
 * one over every tenant and keeps a site's search inside its own points.
 */
const HNSW = { m: 0, payload_m: 16 } as const

const TENANT_INDEX: Schemas["KeywordIndexParams"] = { type: "keyword", is_tenant: true }

/**
 * The layer's own integer keys: "terms" is matched by value, "id_order" ordered and ranged.
 * Neither gets HNSW links: with payload_m set, Qdrant builds a graph for every value (or
 * range block) of an indexed key that holds enough points, and a common term is such a value:
 * with them, the index build after a large fill would run for a very long time.
 */
const INTEGER_INDEXES: Record<string, Schemas["IntegerIndexParams"]> = {
  [TERMS_KEY]: { type: "integer", lookup: true, range: false, enable_hnsw: false },
  [ORDER_KEY]: { type: "integer", lookup: false, range: true, enable_hnsw: false }
}

const show = (value: unknown) => (value === undefined || value === null ? "none" : JSON.stringify(value))

/**
 * How an existing collection differs from the layout in what cannot be changed in place:
 * vector names, sizes, distance, datatype, the multivector comparator and the sparse
 * modifiers. Empty when it fits.
 */
export const layoutMismatches = (params: Schemas["CollectionParams"], options: ResolvedOptions): Array<string> => {
  const problems: Array<string> = []
  const vectors = (params.vectors ?? {}) as Record<string, VectorParams | undefined>
  if (typeof (vectors as { size?: unknown }).size === "number") return ["it has one unnamed vector, not named ones"]
  for (const [name, wanted] of Object.entries(vectorParams(options))) {
    const actual = vectors[name]
    if (actual === undefined) {
      problems.push(`no dense vector "${name}"`)
      continue
    }
    const fields: Array<[string, unknown, unknown]> = [
      ["size", actual.size, wanted.size],
      ["distance", actual.distance, wanted.distance],
      ["multivector comparator", actual.multivector_config?.comparator, wanted.multivector_config?.comparator]
    ]
    // An image datatype left unset accepts either float (older collections are float32).
    const datatype = actual.datatype ?? "float32"
    if (name !== IMAGE_VECTOR || options.imageDatatypeRequired || (datatype !== "float32" && datatype !== "float16")) {
      fields.push(["datatype", datatype, wanted.datatype ?? "float32"])
    }
    for (const [field, has, needs] of fields) {
      if (has !== needs) problems.push(`vector "${name}" has ${field} ${show(has)}, the index needs ${show(needs)}`)
    }
  }
  const sparse = params.sparse_vectors ?? {}
  for (const [name, wanted] of Object.entries(SPARSE_VECTORS)) {
    const actual = sparse[name]
    if (actual === undefined) problems.push(`no sparse vector "${name}"`)
    else if ((actual.modifier ?? "none") !== (wanted.modifier ?? "none")) {
      problems.push(
        `sparse vector "${name}" has modifier ${show(actual.modifier ?? "none")}, ` +
          `the index needs ${show(wanted.modifier ?? "none")}`
      )
    }
  }
  return problems
}

/**
 * The collection exists with our layout, or is created with it; the payload index on the
 * site and the settings that can change in place (HNSW, image vectors on disk) are applied on
 * every start, each only when missing, so a setup interrupted by a crash heals at the next
 * start. A collection with another layout is refused: its points could not be written or
 * would be scored differently. Returns the payload schema, for the column indexes, and the
 * image vectors' datatype (which decides how finely they are sent).
 */
export const ensureCollection = (client: QdrantClient, options: ResolvedOptions) =>
  Effect.gen(function* () {
    const name = options.collection
    const { exists } = yield* call("checking the collection", () => client.collectionExists(name))
    if (!exists) {
      yield* call("creating the collection", () =>
        client.createCollection(name, {
          vectors: vectorParams(options),
          sparse_vectors: SPARSE_VECTORS,
          hnsw_config: HNSW,
          shard_number: options.shards,
          replication_factor: options.replicationFactor,
          write_consistency_factor: options.writeConsistencyFactor
        })
      ).pipe(
        // Another replica may have created it in between: that is as good.
        Effect.catchAll((error) =>
          call("checking the collection", () => client.collectionExists(name)).pipe(
            Effect.flatMap(({ exists }) => (exists ? Effect.void : Effect.fail(error)))
          )
        )
      )
    }
    const info = yield* call("reading the collection", () => client.getCollection(name), { settling: true })
    const problems = layoutMismatches(info.config.params, options)
    if (problems.length > 0) {
      return yield* Effect.fail(
        new IndexError({
          message:
            `Qdrant collection "${name}" does not have the layout this index needs: ${problems.join("; ")}. ` +
            "Point QDRANT_COLLECTION to a new collection (it is created) and reindex, or delete this one."
        })
      )
    }
    const hnsw = info.config.hnsw_config
    if (hnsw.m !== HNSW.m || hnsw.payload_m !== HNSW.payload_m) {
      yield* call("setting the collection's HNSW graphs", () => client.updateCollection(name, { hnsw_config: HNSW }))
    }
    const image = (info.config.params.vectors as Record<string, VectorParams | undefined>)[IMAGE_VECTOR]
    if ((image?.on_disk ?? false) !== options.imageOnDisk) {
      yield* call("moving the image vectors", () =>
        client.updateCollection(name, { vectors: { [IMAGE_VECTOR]: { on_disk: options.imageOnDisk } } })
      )
    }
    const site = info.payload_schema[SITE_KEY]?.params as Schemas["KeywordIndexParams"] | undefined
    if (site?.type !== "keyword" || site.is_tenant !== true) {
      yield* call("creating the site index", () =>
        client.createPayloadIndex(name, { field_name: SITE_KEY, field_schema: TENANT_INDEX, wait: true })
      )
    }
    // Lexical match counts (Query.ts matchFilter) and the variant lists' exclusions, and browse's
    // product-id order (IdOrder.ts): integer indexes, made good on every start like the site's.
    for (const [field, wanted] of Object.entries(INTEGER_INDEXES)) {
      const actual = info.payload_schema[field]
      const params = actual?.params as Schemas["IntegerIndexParams"] | undefined
      if (
        actual?.data_type === "integer" &&
        params?.enable_hnsw === false &&
        params.lookup === wanted.lookup &&
        params.range === wanted.range
      )
        continue
      // An index of other parameters (one made before HNSW was turned off for it) is replaced.
      if (actual !== undefined)
        yield* call(`replacing the ${field} index`, () => client.deletePayloadIndex(name, field, { wait: true }))
      yield* call(`creating the ${field} index`, () =>
        client.createPayloadIndex(name, { field_name: field, field_schema: wanted, wait: true })
      )
    }
    const imageDatatype: ResolvedOptions["imageDatatype"] = image?.datatype === "float16" ? "float16" : "float32"
    return { schema: info.payload_schema, imageDatatype }
  })
