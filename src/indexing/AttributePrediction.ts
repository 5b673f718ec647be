import { Effect, Option } from "effect"
import { createHash } from "node:crypto"
import { CatalogIndex, type SearchHit } from "../services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../model/Filter.js"
import type { IndexDocument, PayloadValue } from "../model/IndexDocument.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import type { ImageAnalysisRecord } from "../model/ImageAnalysis.js"
import type { ProductKey, StoredProduct } from "../model/StoredProduct.js"
import { PredictionStore } from "../services/prediction-store/PredictionStore.js"
import type { ComputedAttribute, ComputedImage, PredictionResult } from "../model/Prediction.js"

/**
 * Attribute prediction for POST /product/{id}/predicted-attributes (worker side).
 *
 * Evidence, per attribute:
 * - color: the dominant colour of the product's own first analysed image (its largest
 *   non-background colour cluster, named with the shop palette); without an analysed image,
 *   the neighbours' colours.
 * - adult: the images' adult score (the highest over the product's images, > 0.5 → true);
 *   without an analysed image, the neighbours' adult flags.
 * - shopping_product_category, product_type: the leaf category path most supported by the
 *   neighbours (text form "A > B > C").
 * - brand: a known brand of the site written in the title (the longest one); otherwise the
 *   neighbours' brands.
 * - gender, age_group, material, pattern: the neighbours' values.
 *
 * Neighbours are the K nearest other products of the site by text embedding and by image
 * embedding. Each neighbour votes with weight similarity² (text) plus ½·similarity² per image
 * match (image features of unrelated photos are less far apart than text). A value is
 * predicted only when its votes reach MIN_SUPPORT of all the neighbours' weight and MIN_EVIDENCE
 * in absolute terms, so a single odd neighbour is not evidence.
 */

/** Every attribute the service predicts, in the order an "everything" answer lists them. */
export const PREDICTABLE_ATTRIBUTES = [
  "color",
  "adult",
  "shopping_product_category",
  "product_type",
  "brand",
  "gender",
  "age_group",
  "material",
  "pattern"
] as const
export type PredictableAttribute = (typeof PREDICTABLE_ATTRIBUTES)[number]

export const isPredictable = (name: string): name is PredictableAttribute =>
  (PREDICTABLE_ATTRIBUTES as ReadonlyArray<string>).includes(name)

/** Attributes each image carries about itself (`images[].attributes`), in this order. */
export const IMAGE_ATTRIBUTES = ["color", "adult", "objects"] as const

/** Neighbours asked for per vector. */
export const NEIGHBOURS = 10
/** Share of the neighbours' total weight a value needs to be predicted. */
export const MIN_SUPPORT = 0.25
/**
 * Absolute weight a value needs: one close neighbour (similarity ≥ 0.71) or two fair ones. In a
 * tiny catalog a single unrelated neighbour would otherwise hold 100 % of the votes.
 */
export const MIN_EVIDENCE = 0.5
/** An image adult score above this reads as adult content. */
export const ADULT_THRESHOLD = 0.5
/** Image vectors of the product used as neighbour queries. */
const IMAGE_QUERIES = 3
/** Relative weight of an image neighbour's vote. */
const IMAGE_VOTE_WEIGHT = 0.5
/** Detections below this score are not reported as objects of an image. */
const OBJECT_SCORE = 0.4

/**
 * Fingerprint of the product's own inputs to a prediction: the record version and, per current
 * image, when it was analysed (or that it is still pending) and whether its objects are still
 * to be detected. A stored prediction with the same fingerprint is current; the neighbours'
 * later changes do not invalidate it (see docs/api.md).
 */
export const predictionInputs = (product: StoredProduct, analyses: ReadonlyArray<ImageAnalysisRecord>): string => {
  const byId = new Map(analyses.map((a) => [a.imageId, a]))
  const state = (imageId: string) => {
    const a = byId.get(imageId)
    return a === undefined ? "pending" : a.objects === null ? `${a.analyzedAt}+objects pending` : String(a.analyzedAt)
  }
  const parts = [String(product.version), ...product.images.map((i) => `${i.id}@${state(i.id)}`)]
  return createHash("sha256").update(parts.join("\n")).digest("base64url").slice(0, 32)
}

/** The catalog's value of an attribute: the record's field as stored, null when absent. */
const catalogValue = (product: StoredProduct, name: PredictableAttribute): unknown => product.data[name] ?? null

// ---- neighbour votes --------------------------------------------------------------------

interface Neighbour {
  readonly doc: IndexDocument
  readonly weight: number
}

class Tally {
  private readonly weights = new Map<string, { value: string; weight: number }>()
  add(value: string, weight: number) {
    const key = value.toLowerCase()
    const known = this.weights.get(key)
    if (known) known.weight += weight
    else this.weights.set(key, { value, weight })
  }
  /** The best supported value if it reaches `minShare` of `total`; ties go to the first alphabetically. */
  best(total: number, minShare: number): { value: string; confidence: number } | null {
    let best: { value: string; weight: number } | null = null
    for (const entry of this.weights.values()) {
      if (best === null || entry.weight > best.weight || (entry.weight === best.weight && entry.value < best.value))
        best = entry
    }
    if (best === null || total <= 0 || best.weight / total < minShare || best.weight < MIN_EVIDENCE) return null
    return { value: best.value, confidence: round(best.weight / total) }
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000

const strings = (v: PayloadValue | undefined): ReadonlyArray<string> =>
  typeof v === "string" ? [v] : Array.isArray(v) ? (v as ReadonlyArray<string>) : []

/** Deepest paths of a column holding every ancestor: those that are no other path's prefix. */
export const leafPaths = (paths: ReadonlyArray<string>): ReadonlyArray<string> =>
  paths.filter((p) => !paths.some((q) => q !== p && q.startsWith(`${p} > `)))

const vote = (neighbours: ReadonlyArray<Neighbour>, values: (doc: IndexDocument) => ReadonlyArray<string>) => {
  const tally = new Tally()
  let total = 0
  for (const n of neighbours) {
    total += n.weight
    for (const v of new Set(values(n.doc))) tally.add(v, n.weight)
  }
  return tally.best(total, MIN_SUPPORT)
}

const predicted = (
  name: string,
  value: unknown,
  prediction: { value: unknown; confidence: number } | null,
  source: ComputedAttribute["source"]
): ComputedAttribute => ({
  name,
  value,
  prediction: prediction?.value ?? null,
  confidence: prediction?.confidence ?? null,
  source: prediction === null ? null : source
})

// ---- the product's own evidence ---------------------------------------------------------

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The longest known brand written as whole words in the title. */
export const brandInTitle = (title: string, brands: ReadonlyArray<string>): string | null => {
  let found: string | null = null
  for (const brand of brands) {
    if (brand.trim().length === 0 || (found !== null && brand.length <= found.length)) continue
    const pattern = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(brand.trim())}($|[^\\p{L}\\p{N}])`, "iu")
    if (pattern.test(title)) found = brand
  }
  return found
}

const ok = (analyses: ReadonlyArray<ImageAnalysisRecord>) => analyses.filter((a) => a.status === "ok")

const imageColor = (analysis: ImageAnalysisRecord) => {
  const top = analysis.colors[0]
  return top === undefined ? null : { value: top.name, confidence: round(top.share) }
}

const adultOf = (score: number) => ({
  value: score > ADULT_THRESHOLD,
  confidence: round(score > ADULT_THRESHOLD ? score : 1 - score)
})

/**
 * What one image says about itself; all null when it is not analysed (yet) or could not be,
 * and objects null while they are not detected yet.
 */
export const imageAttributes = (analysis: ImageAnalysisRecord | undefined): ReadonlyArray<ComputedAttribute> => {
  const usable = analysis !== undefined && analysis.status === "ok" ? analysis : undefined
  const detected = (usable?.objects ?? []).filter((o) => o.score >= OBJECT_SCORE)
  const objects = usable?.objects ? [...new Set(detected.map((o) => o.class))] : null
  const bestObject = Math.max(0, ...detected.map((o) => o.score))
  return [
    predicted("color", null, usable ? imageColor(usable) : null, "image"),
    predicted("adult", null, usable && usable.adult !== null ? adultOf(usable.adult) : null, "image"),
    predicted("objects", null, objects === null ? null : { value: objects, confidence: round(bestObject) }, "image")
  ]
}

// ---- the whole prediction ---------------------------------------------------------------

/** Pure part: every predictable attribute from the product, its image analyses, neighbours and the site's brands. */
export const predictFrom = (
  product: StoredProduct,
  analyses: ReadonlyArray<ImageAnalysisRecord>,
  neighbours: ReadonlyArray<Neighbour>,
  brands: ReadonlyArray<string>
): PredictionResult => {
  const usable = ok(analyses)
  const byId = new Map(analyses.map((a) => [a.imageId, a]))
  // The product's main image is the first of its images that could be analysed.
  const main = product.images.map((i) => byId.get(i.id)).find((a) => a !== undefined && a.status === "ok")
  const adultScores = usable.flatMap((a) => (a.adult === null ? [] : [a.adult]))
  const column = (name: string) => (doc: IndexDocument) => strings(doc.payload[name])

  const attribute = (name: PredictableAttribute): ComputedAttribute => {
    const value = catalogValue(product, name)
    switch (name) {
      case "color": {
        const own = main ? imageColor(main) : null
        return own !== null
          ? predicted(name, value, own, "image")
          : predicted(name, value, vote(neighbours, column("color")), "neighbours")
      }
      case "adult": {
        if (adultScores.length > 0) return predicted(name, value, adultOf(Math.max(...adultScores)), "image")
        const flags = vote(neighbours, (doc) =>
          typeof doc.payload.adult === "boolean" ? [String(doc.payload.adult)] : []
        )
        return predicted(
          name,
          value,
          flags === null ? null : { value: flags.value === "true", confidence: flags.confidence },
          "neighbours"
        )
      }
      case "shopping_product_category":
      case "product_type":
        return predicted(
          name,
          value,
          vote(neighbours, (doc) => leafPaths(strings(doc.payload[name]))),
          "neighbours"
        )
      case "brand": {
        const titled = brandInTitle(product.data.title ?? "", brands)
        return titled !== null
          ? predicted(name, value, { value: titled, confidence: 1 }, "title")
          : predicted(name, value, vote(neighbours, column("brand")), "neighbours")
      }
      case "gender":
      case "age_group":
      case "material":
      case "pattern":
        return predicted(name, value, vote(neighbours, column(name)), "neighbours")
    }
  }

  const images: Array<ComputedImage> = product.images.map((image) => ({
    url: image.url,
    imageId: image.id,
    attributes: imageAttributes(byId.get(image.id))
  }))
  return { attributes: PREDICTABLE_ATTRIBUTES.map(attribute), images, neighbours: neighbours.length }
}

const addHits = (
  into: Map<string, number>,
  hits: ReadonlyArray<SearchHit>,
  similarity: (h: SearchHit) => number,
  factor: number
) => {
  for (const hit of hits) {
    const s = Math.max(0, similarity(hit))
    into.set(hit.productId, (into.get(hit.productId) ?? 0) + factor * s * s)
  }
}

/** The K nearest other products of the site by the product's text vector and image vectors. */
const findNeighbours = (product: StoredProduct) =>
  Effect.gen(function* () {
    const index = yield* CatalogIndex
    const { siteId, productId } = product
    const [self] = yield* index.retrieve(siteId, [productId])
    const weights = new Map<string, number>()
    const base = { siteId, filter: emptyFilter, limit: NEIGHBOURS, excludeIds: [productId] }
    const textVector = self?.vectors.text
    if (textVector !== undefined) {
      const { hits } = yield* index.search({ ...base, textVector, weights: { lexical: 0, text: 1, image: 0 } })
      addHits(weights, hits, (h) => h.text, 1)
    } else if (product.data.title) {
      // Not embedded (yet): the title's words find the neighbours instead, weighted by relative BM25.
      const { hits } = yield* index.search({
        ...base,
        text: product.data.title,
        weights: { lexical: 1, text: 0, image: 0 }
      })
      addHits(weights, hits, (h) => h.lexical, 1)
    }
    const imageVectors = (self?.vectors.image ?? []).slice(0, IMAGE_QUERIES)
    for (const imageVector of imageVectors) {
      const { hits } = yield* index.search({ ...base, imageVector, weights: { lexical: 0, text: 0, image: 1 } })
      addHits(weights, hits, (h) => h.image, IMAGE_VOTE_WEIGHT / imageVectors.length)
    }
    const docs = yield* index.retrieve(siteId, [...weights.keys()])
    return docs.flatMap((doc): Array<Neighbour> => {
      const weight = weights.get(doc.productId) ?? 0
      return weight > 0 ? [{ doc, weight }] : []
    })
  })

/** Brands known on the site (the index's brand column). */
const siteBrands = (siteId: number) =>
  Effect.flatMap(CatalogIndex, (index) => index.facet(siteId, "brand", { filter: emptyFilter }, 5_000)).pipe(
    Effect.map((counts) => counts.map((c) => c.value))
  )

/**
 * Computes and stores the prediction of each product's current version (unless the stored one
 * is already current). Runs as the PredictAttributes job, after the job handler brought the
 * product's index entry and image analyses up to date. A product deleted meanwhile loses its
 * stored prediction.
 */
export const predictAttributes = (keys: ReadonlyArray<ProductKey>) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const predictions = yield* PredictionStore
    for (const key of keys) {
      const found = yield* store.get(key.siteId, key.productId)
      if (Option.isNone(found)) {
        yield* predictions.remove(key.siteId, key.productId)
        continue
      }
      const product = found.value
      const analyses = yield* store.imageAnalyses(product.siteId, product.productId)
      const inputs = predictionInputs(product, analyses)
      // A repeated job (a waiting request asks again while the first one runs) finds it done.
      const stored = yield* predictions.get(product.siteId, product.productId)
      if (Option.isSome(stored) && stored.value.inputs === inputs) continue
      const neighbours = yield* findNeighbours(product)
      const brands = yield* siteBrands(product.siteId)
      yield* predictions.save({
        siteId: product.siteId,
        productId: product.productId,
        version: product.version,
        inputs,
        result: predictFrom(product, analyses, neighbours, brands),
        computedAt: Date.now()
      })
    }
  })
