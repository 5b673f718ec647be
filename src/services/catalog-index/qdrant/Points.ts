import type { Schemas } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import type { IndexError } from "../CatalogIndex.js"
import type { IndexDocument, PayloadValue } from "../../../model/IndexDocument.js"
import { call, type Qdrant } from "./Client.js"
import type { QdrantFilter } from "./FilterTranslation.js"
import {
  COLUMNS_KEY, GRAMS_VECTOR, IMAGE_VECTOR, LEXICAL_VECTOR, ORDER_KEY, PRODUCT_KEY, SITE_KEY, TERMS_KEY, TEXT_KEY, TEXT_VECTOR, siteValue
} from "./Layout.js"
import { idOrder } from "./IdOrder.js"
import { pointId } from "./PointIds.js"
import { documentGrams, documentLexical } from "./SparseText.js"

type Vectors = Record<string, Schemas["Vector"]>

/**
 * A document as a point. The payload keeps the text fields and columns as given, so
 * `retrieve` rebuilds the IndexDocument; absent vectors are simply not set (named vectors
 * are optional per point), and an upsert replaces the whole point, old vectors included.
 */
export const toPoint = (doc: IndexDocument): Schemas["PointStruct"] => {
  const vector: Vectors = {}
  if (doc.vectors.text !== undefined) vector[TEXT_VECTOR] = Array.from(doc.vectors.text)
  if (doc.vectors.image !== undefined && doc.vectors.image.length > 0) {
    vector[IMAGE_VECTOR] = doc.vectors.image.map((image) => Array.from(image))
  }
  const lexical = documentLexical(doc.text)
  if (lexical.indices.length > 0) {
    vector[LEXICAL_VECTOR] = lexical
    vector[GRAMS_VECTOR] = documentGrams(doc.text)
  }
  return {
    id: pointId(doc.siteId, doc.productId),
    vector,
    payload: {
      [SITE_KEY]: siteValue(doc.siteId),
      [PRODUCT_KEY]: doc.productId,
      [ORDER_KEY]: idOrder(doc.productId),
      [TEXT_KEY]: doc.text,
      [TERMS_KEY]: lexical.indices,
      [COLUMNS_KEY]: doc.payload
    }
  }
}

export const productIdOf = (payload: Schemas["Payload"] | null | undefined): string => String(payload?.[PRODUCT_KEY])

export const columnsOf = (payload: Schemas["Payload"] | null | undefined): Readonly<Record<string, PayloadValue>> =>
  (payload?.[COLUMNS_KEY] as Record<string, PayloadValue> | undefined) ?? {}

export const textOf = (payload: Schemas["Payload"] | null | undefined): IndexDocument["text"] =>
  payload?.[TEXT_KEY] as IndexDocument["text"]

/** Qdrant returns cosine vectors normalised: direction, all a cosine index keeps, survives. */
export const toDocument = (siteId: number, record: Schemas["Record"]): IndexDocument => {
  const vectors = (record.vector ?? {}) as Record<string, ReadonlyArray<number> | ReadonlyArray<ReadonlyArray<number>> | undefined>
  const text = vectors[TEXT_VECTOR] as ReadonlyArray<number> | undefined
  const images = vectors[IMAGE_VECTOR] as ReadonlyArray<ReadonlyArray<number>> | undefined
  return {
    siteId,
    productId: productIdOf(record.payload),
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
  Effect.gen(function*() {
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
