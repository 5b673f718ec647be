import { categoryAncestors, parseCategoryPath } from "../domain/CategoryPath.js"
import { parseHighlights, parseProductDetails, parseProductTypes, type ProductRecord } from "../domain/Product.js"
import type { IndexDocument, PayloadValue } from "./IndexDocument.js"
import type { ImageAnalysisRecord } from "./ImageAnalysis.js"
import type { StoredProduct } from "./StoredProduct.js"

/** Category columns hold every ancestor path, so filtering on "A > B" also matches "A > B > C". */
export const categoryColumns = ["category", "shopping_product_category", "product_type"] as const

/** Plain string columns copied from the record as they are (filter values match exactly). */
const stringColumns = [
  "brand", "availability", "condition", "gender", "age_group", "size", "size_type", "size_system",
  "material", "pattern", "item_group_id", "promotion_id", "energy_efficiency_class", "mpn",
  "custom_label_0", "custom_label_1", "custom_label_2", "custom_label_3", "custom_label_4"
] as const satisfies ReadonlyArray<keyof ProductRecord>

const stripHtml = (s: string) => s.replace(/<[^>]*>/g, " ").replace(/&[a-z#0-9]+;/gi, " ").replace(/\s+/g, " ").trim()

/** The price a shopper pays: the sale price when there is a lower one. */
export const effectivePrice = (data: ProductRecord): number | null => {
  const { price, sale_price } = data
  if (sale_price != null && (price == null || sale_price < price)) return sale_price
  return price ?? null
}

export const productCategories = (data: ProductRecord) => {
  const shopping = data.shopping_product_category ? [parseCategoryPath(data.shopping_product_category)] : []
  const types = data.product_type ? parseProductTypes(data.product_type).map(parseCategoryPath) : []
  return { shopping, types }
}

/** Colours as lowercase names; "Red/Black" and "red, black" both give ["red", "black"]. */
export const colorNames = (color: string | null | undefined): ReadonlyArray<string> =>
  color ? color.split(/[/,]/).map((c) => c.trim().toLowerCase()).filter((c) => c.length > 0) : []

export const toPayload = (data: ProductRecord): Record<string, PayloadValue> => {
  const { shopping, types } = productCategories(data)
  const shoppingPaths = shopping.flatMap(categoryAncestors)
  const typePaths = types.flatMap(categoryAncestors)
  const payload: Record<string, PayloadValue> = {
    category: [...new Set([...shoppingPaths, ...typePaths])],
    shopping_product_category: shoppingPaths,
    product_type: [...new Set(typePaths)],
    color: colorNames(data.color),
    gtin: data.gtin ? data.gtin.split(",").map((g) => g.trim()).filter((g) => g.length > 0) : [],
    price: effectivePrice(data),
    list_price: data.price ?? null,
    sale_price: data.sale_price ?? null,
    multipack: data.multipack ?? null,
    adult: data.adult ?? null,
    is_bundle: data.is_bundle ?? null
  }
  for (const column of stringColumns) {
    const value = data[column]
    payload[column] = typeof value === "string" && value.trim().length > 0 ? value.trim() : null
  }
  return payload
}

const labelsText = (paths: ReadonlyArray<ReadonlyArray<string>>) => paths.map((p) => p.join(" ")).join(" . ")

export const toText = (data: ProductRecord): IndexDocument["text"] => {
  const { shopping, types } = productCategories(data)
  return {
    title: data.title ?? "",
    brand: data.brand ?? "",
    productType: labelsText(types),
    category: labelsText(shopping),
    description: data.description ? stripHtml(data.description) : "",
    highlights: data.product_highlight ? parseHighlights(data.product_highlight).join(" . ") : "",
    details: data.product_detail ? parseProductDetails(data.product_detail).map((d) => `${d.attribute} ${d.value}`).join(" . ") : "",
    extra: [data.color, data.material, data.pattern, data.gender, data.age_group, data.size, data.mpn, data.gtin]
      .filter((v): v is string => typeof v === "string" && v.length > 0)
      .join(" ")
  }
}

/**
 * What the text embedding sees: the title, which says what the product is. Brand, category and
 * description are left to lexical retrieval: the model's cost grows with text length (≈6 ms for
 * a 35-character title in a batch, ≈10 ms for title + brand + category, ≈40 ms with 300
 * characters of description) and indexing throughput is bound by it, while the relevance
 * evaluation showed no gain from the longer texts. A product without a title is embedded by
 * its brand and leaf categories.
 */
export const embeddingText = (data: ProductRecord): string => {
  if (data.title && data.title.trim().length > 0) return data.title
  const { shopping, types } = productCategories(data)
  const leaf = [...shopping, ...types].map((p) => p[p.length - 1]).filter((l) => l !== undefined)
  return [data.brand, [...new Set(leaf)].join(", ")]
    .filter((s): s is string => typeof s === "string" && s.length > 0)
    .join(". ")
}

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
  const colors = [...new Set(ok.flatMap((i) => i.colors.filter((c) => c.share >= IMAGE_COLOR_SHARE).map((c) => c.name)))]
  // Objects not detected yet (null) add nothing until the detection pass re-indexes the product.
  const objects = [...new Set(ok.flatMap((i) => (i.objects ?? []).filter((o) => o.score >= IMAGE_OBJECT_SCORE).map((o) => o.class)))]
  const adult = ok.reduce((max, i) => Math.max(max, i.adult ?? 0), 0)
  return { colors, objects, adult, embeddings: ok.flatMap((i) => (i.embedding ? [i.embedding] : [])) }
}

export const toIndexDocument = (
  product: StoredProduct,
  textVector: Float32Array | null,
  images: ReadonlyArray<ImageAnalysisRecord> = []
): IndexDocument => {
  const visual = visualAttributes(images)
  const text = toText(product.data)
  const payload = toPayload(product.data)
  const recordColors = payload["color"] as ReadonlyArray<string>
  return {
    siteId: product.siteId,
    productId: product.productId,
    text: visual.colors.length + visual.objects.length === 0
      ? text
      : { ...text, extra: [text.extra, ...visual.colors, ...visual.objects].filter((w) => w.length > 0).join(" ") },
    payload: {
      ...payload,
      // The record's colour wins; a product without one is filterable by what its photos show.
      color: recordColors.length > 0 ? recordColors : visual.colors.slice(0, 2),
      image_color: visual.colors,
      image_object: visual.objects
    },
    vectors: { text: textVector ?? undefined, image: visual.embeddings.length > 0 ? visual.embeddings : undefined }
  }
}
