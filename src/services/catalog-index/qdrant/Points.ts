import { columnsOf, productIdOf, textOf } from "./Layout.js"
import type { Schemas } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import type { IndexError } from "../CatalogIndex.js"
import type { IndexDocument } from "../../../model/IndexDocument.js"
import type { Qdrant } from "./Client.js"
import { call } from "./Request.js"
import type { QdrantFilter } from "./FilterTranslation.js"
import {
  COLUMNS_KEY,
  IMAGE_VECTOR,
  idOrder,
  LEXICAL_VECTOR,
  ORDER_KEY,
  PRODUCT_KEY,
  SITE_KEY,
  TERMS_KEY,
  TEXT_KEY,
  TEXT_VECTOR,
  VERSION_KEY,
  siteValue
} from "./Layout.js"
import { pointId } from "./PointIds.js"
import { chunksOf } from "../../../platform/Chunks.js"
import { type DocumentTerms, documentTerms } from "./SparseText.js"

type Vectors = Record<string, Schemas["Vector"]>

/**
 * Rounding steps of dense vectors in requests, by storage type. Cosine keeps only a vector's
 * direction, so it is sent at unit length and rounded to 1e-7 (float32) or 1e-5 (float16,
 * whose own step is already 1.5e-5 at 0.03): "-0.0123457" instead of the float32's exact
 * double "-0.012345678918063641" halves the JSON, while a cosine moves little beyond what the
 * storage type itself moves it.
 */
const SCALE = { float32: 1e7, float16: 1e5 } as const
export type Datatype = keyof typeof SCALE

export const denseJson = (vector: Float32Array, datatype: Datatype): Array<number> => {
  const scale = SCALE[datatype]
  let norm = 0
  for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i]
  // A zero vector stays zero (Qdrant refuses nothing and scores it 0).
  const factor = norm > 0 ? scale / Math.sqrt(norm) : 0
  // Dividing by a power of ten gives the double nearest the decimal: JSON prints the decimal.
  return Array.from(vector, (x) => Math.round(x * factor) / scale)
}

/**
 * A product's images as a multivector that Qdrant cannot misread. Its JSON takes a named
 * vector as the first shape that parses, and a sparse vector `{indices, values}` also parses
 * from a two-element array: two images whose first is all non-negative integers (one-hot or
 * quantised vectors) would become the sparse vector {indices: image 1, values: image 2}, refused
 * with "indices: must be unique" (or "Conversion between sparse and regular vectors failed").
 * Writing one number of that image as the next double up makes it non-integral in the JSON
 * while Qdrant, which reads float32, stores the very same vector.
 */
export const multivector = (images: ReadonlyArray<Float32Array>, datatype: Datatype): Array<Array<number>> => {
  const rows = images.map((image) => denseJson(image, datatype))
  const first = rows[0]
  if (rows.length === 2 && first.length > 0 && first.every((x) => Number.isInteger(x) && x >= 0)) {
    first[0] = first[0] === 0 ? Number.MIN_VALUE : first[0] * (1 + Number.EPSILON)
  }
  return rows
}

/**
 * A document as a point. The payload keeps the text fields and columns as given, so
 * `retrieve` rebuilds the IndexDocument; absent vectors are simply not set (named vectors
 * are optional per point), and an upsert replaces the whole point, old vectors included.
 */
export const toPoint = (
  doc: IndexDocument,
  imageDatatype: Datatype = "float32",
  { lexical }: DocumentTerms = documentTerms(doc.text)
): Schemas["PointStruct"] => {
  const vector: Vectors = {}
  if (doc.vectors.text !== undefined) vector[TEXT_VECTOR] = denseJson(doc.vectors.text, "float32")
  if (doc.vectors.image !== undefined && doc.vectors.image.length > 0) {
    vector[IMAGE_VECTOR] = multivector(doc.vectors.image, imageDatatype)
  }
  if (lexical.indices.length > 0) vector[LEXICAL_VECTOR] = lexical
  return {
    id: pointId(doc.siteId, doc.productId),
    vector,
    payload: {
      [SITE_KEY]: siteValue(doc.siteId),
      [PRODUCT_KEY]: doc.productId,
      [ORDER_KEY]: idOrder(doc.productId),
      [TEXT_KEY]: doc.text,
      [TERMS_KEY]: lexical.indices,
      [COLUMNS_KEY]: doc.payload,
      ...(doc.version === undefined ? {} : { [VERSION_KEY]: doc.version })
    }
  }
}

/**
 * The condition under which an upsert of `points` may replace the points already stored: none
 * of them holds a newer record version than the one replacing it (a late indexing job never
 * undoes a newer write, as in the embedded index). Qdrant's `update_filter` is one filter per
 * request, checked against each stored point; one clause per versioned point, each tied to its
 * id, makes it per point. New points are inserted whatever it says. Undefined: nothing to guard.
 */
export const newerKept = (points: ReadonlyArray<Schemas["PointStruct"]>): Schemas["Filter"] | undefined => {
  const clauses = points.flatMap((point) => {
    const version = point.payload?.[VERSION_KEY]
    return typeof version === "number"
      ? [{ must: [{ has_id: [point.id] }, { key: VERSION_KEY, range: { gt: version } }] }]
      : []
  })
  return clauses.length === 0 ? undefined : { must_not: [{ should: clauses }] }
}

/** Qdrant returns cosine vectors normalised: direction, all a cosine index keeps, survives. */
export const toDocument = (siteId: number, record: Schemas["Record"]): IndexDocument => {
  const vectors = (record.vector ?? {}) as Record<
    string,
    ReadonlyArray<number> | ReadonlyArray<ReadonlyArray<number>> | undefined
  >
  const text = vectors[TEXT_VECTOR] as ReadonlyArray<number> | undefined
  const images = vectors[IMAGE_VECTOR] as ReadonlyArray<ReadonlyArray<number>> | undefined
  const version = record.payload?.[VERSION_KEY]
  return {
    siteId,
    productId: productIdOf(record.payload),
    ...(typeof version === "number" ? { version } : {}),
    text: textOf(record.payload),
    payload: columnsOf(record.payload),
    vectors: {
      text: text === undefined ? undefined : Float32Array.from(text),
      image: images?.map((image) => Float32Array.from(image))
    }
  }
}

const PAGE = 1_000

/**
 * Every point matching `filter` (with the chosen payload), up to `cap`, in Qdrant's own
 * (point id) order, following `next_page_offset`.
 */
export const scrollAll = (
  q: Qdrant,
  filter: QdrantFilter,
  withPayload: Schemas["WithPayloadInterface"],
  cap: number
): Effect.Effect<Array<Schemas["Record"]>, IndexError> =>
  Effect.gen(function* () {
    const records: Array<Schemas["Record"]> = []
    let offset: Schemas["ExtendedPointId"] | undefined
    do {
      const page = yield* call("scroll", () =>
        q.client.scroll(q.collection, {
          filter,
          limit: Math.min(PAGE, cap - records.length),
          with_payload: withPayload,
          with_vector: false,
          ...(offset !== undefined && { offset })
        })
      )
      records.push(...page.points)
      const next = page.next_page_offset
      offset = typeof next === "string" || typeof next === "number" ? next : undefined
    } while (offset !== undefined && records.length < cap)
    return records
  })

/** An encoded point's size in the request: its UTF-8 bytes. */
export const encodedBytes = ({ json }: { readonly json: string }): number => Buffer.byteLength(json)

/**
 * `points` cut into upsert requests of at most `maxPoints` points and `maxBytes` of JSON by
 * `sizeOf` (a point above `maxBytes` on its own goes alone). Qdrant refuses a body over its
 * request limit whatever the retry, and a few hundred products of several 1792-d images reach it.
 */
export const upsertChunks = <P>(
  points: ReadonlyArray<P>,
  sizeOf: (point: P) => number,
  maxBytes: number,
  maxPoints: number
): Array<Array<P>> =>
  // The point, plus its comma, inside {"points":[…]}.
  chunksOf(points, (point) => sizeOf(point) + 1, maxBytes, maxPoints)
