import { categoryAncestors, parseCategoryPath } from "../domain/CategoryPath.js"
import { parseHighlights, parseProductDetails, parseProductTypes, type ProductRecord } from "../domain/Product.js"
import { allColumns, columnValues, recordColumnValues, searchableText } from "./Columns.js"
import type { IndexDocument } from "./IndexDocument.js"
import type { ImageAnalysisRecord } from "./ImageAnalysis.js"
import type { StoredProduct } from "./StoredProduct.js"

/** The text of an HTML fragment: tags and entities dropped, whitespace collapsed. */
export const stripHtml = (s: string) =>
  s
    .replace(/<[^>]*>/g, " ")
    .replace(/&[a-z#0-9]+;/gi, " ")
    .replace(/\s+/g, " ")
    .trim()

export const productCategories = (data: ProductRecord) => {
  const shopping = data.shopping_product_category ? [parseCategoryPath(data.shopping_product_category)] : []
  const types = data.product_type ? parseProductTypes(data.product_type).map(parseCategoryPath) : []
  return { shopping, types }
}

const labelsText = (paths: ReadonlyArray<ReadonlyArray<string>>) => paths.map((p) => p.join(" ")).join(" . ")

const toText = (
  data: ProductRecord,
  { shopping, types }: ReturnType<typeof productCategories>
): IndexDocument["text"] => ({
  title: data.title ?? "",
  brand: data.brand ?? "",
  productType: labelsText(types),
  category: labelsText(shopping),
  description: data.description ? stripHtml(data.description) : "",
  highlights: data.product_highlight ? parseHighlights(data.product_highlight).join(" . ") : "",
  details: data.product_detail
    ? parseProductDetails(data.product_detail)
        .map((d) => `${d.attribute} ${d.value}`)
        .join(" . ")
    : "",
  extra: searchableText(data).join(" ")
})

/**
 * What the text embedding sees: the title, which says what the product is. Brand, category and
 * description are left to lexical retrieval: the model's cost grows with text length and
 * indexing throughput is bound by it, while the relevance evaluation showed no gain from the
 * longer texts. A product without a title is embedded by its brand and leaf categories.
 */
export const embeddingText = (data: ProductRecord): string => {
  if (data.title && data.title.trim().length > 0) return data.title
  const { shopping, types } = productCategories(data)
  const leaf = [...shopping, ...types].map((p) => p[p.length - 1]).filter((l) => l !== undefined)
  return [data.brand, [...new Set(leaf)].join(", ")]
    .filter((s): s is string => typeof s === "string" && s.length > 0)
    .join(". ")
}

/**
 * The record fields a product's words, embedded text, completions and category paths come
 * from (see `toText`, `embeddingText`, `suggestSource`): every other field feeds columns only.
 */
const TEXT_SOURCES: ReadonlySet<string> = new Set([
  "title",
  "brand",
  "product_type",
  "shopping_product_category",
  "description",
  "product_highlight",
  "product_detail",
  ...allColumns.flatMap((c) => (c.searchable && c.field !== null ? [c.field] : []))
])

const sameField = (a: unknown, b: unknown): boolean =>
  a === b ||
  (typeof a === "object" &&
    a !== null &&
    typeof b === "object" &&
    b !== null &&
    JSON.stringify(a) === JSON.stringify(b))

/** The columns a change of fields outside TEXT_SOURCES can change (price, availability, labels, …). */
const changeableColumns = allColumns.filter((c) => c.recordOnly && (c.field === null || !TEXT_SOURCES.has(c.field)))

/** The values of the columns a change of columns only sets (see `columnsOnlyChange`). */
export const changeableColumnValues = (record: ProductRecord) => recordColumnValues(record, changeableColumns)

/**
 * Whether `next` differs from `previous` in fields that feed columns only (price, sale price,
 * availability, custom labels, …): its document then keeps its words and vectors, and only
 * the columns that come from those fields change (`changeableColumnValues`).
 */
export const columnsOnlyChange = (previous: ProductRecord, next: ProductRecord): boolean => {
  const before = previous as Readonly<Record<string, unknown>>
  const after = next as Readonly<Record<string, unknown>>
  for (const field in after) if (!sameField(before[field], after[field]) && TEXT_SOURCES.has(field)) return false
  for (const field in before) if (!(field in after) && TEXT_SOURCES.has(field)) return false
  return true
}

/** Whether two records embed the same text: a write between them keeps the product's text version. */
export const sameEmbeddedText = (previous: ProductRecord, next: ProductRecord): boolean =>
  embeddingText(previous) === embeddingText(next)

/** Colours covering at least this share of an image count as the image's colours. */
const IMAGE_COLOR_SHARE = 0.15
/** Detections below this score are too unsure to search or filter by. */
const IMAGE_OBJECT_SCORE = 0.4

/**
 * What the product's images show, as words and columns: the bridge that lets a text query
 * ("red mug") find products by their photos, since no joint text–image model is available.
 */
export const visualAttributes = (images: ReadonlyArray<ImageAnalysisRecord>) => {
  const ok = images.filter((i) => i.status === "ok")
  const colors = [
    ...new Set(ok.flatMap((i) => i.colors.filter((c) => c.share >= IMAGE_COLOR_SHARE).map((c) => c.name)))
  ]
  // Objects not detected yet (null) add nothing until the detection pass re-indexes the product.
  const objects = [
    ...new Set(ok.flatMap((i) => (i.objects ?? []).filter((o) => o.score >= IMAGE_OBJECT_SCORE).map((o) => o.class)))
  ]
  const adult = ok.reduce((max, i) => Math.max(max, i.adult ?? 0), 0)
  return {
    colors,
    objects,
    adult,
    photos: ok.flatMap((i) => (i.embedding ? [{ embedding: i.embedding, colorSignature: i.colorSignature }] : []))
  }
}

/**
 * `imageSpace`: how the photos' feature vectors go into the index (the site's learned visual
 * space, visual-space/SiteVisualSpaces.ts; the raw features without one).
 */
export const toIndexDocument = (
  product: StoredProduct,
  textVector: Float32Array | null,
  images: ReadonlyArray<ImageAnalysisRecord> = [],
  imageSpace: (vector: Float32Array, colorSignature?: Uint8Array) => Float32Array = (vector) => vector
): IndexDocument => {
  const visual = visualAttributes(images)
  const categories = productCategories(product.data)
  const { shopping, types } = categories
  const text = toText(product.data, categories)
  return {
    siteId: product.siteId,
    productId: product.productId,
    version: product.version,
    text:
      visual.colors.length + visual.objects.length === 0
        ? text
        : { ...text, extra: [text.extra, ...visual.colors, ...visual.objects].filter((w) => w.length > 0).join(" ") },
    payload: columnValues({
      record: product.data,
      shoppingPaths: shopping.flatMap(categoryAncestors),
      typePaths: types.flatMap(categoryAncestors),
      addedAt: product.createdAt,
      photos: visual
    }),
    vectors: {
      text: textVector ?? undefined,
      image: visual.photos.length > 0 ? visual.photos.map((p) => imageSpace(p.embedding, p.colorSignature)) : undefined
    }
  }
}
