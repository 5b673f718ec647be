import { parseMeasure, parseProductTypes, type ProductRecord } from "../domain/Product.js"
import type { ResultEntity } from "../domain/ResultEntity.js"
import type { StoredProduct } from "../model/StoredProduct.js"

/** A result entity as this service fills it (fields we have no data for are left out). */
export type ResultEntityOut = ResultEntity

/** Units a base price can be stated in, with the factor to the unit it is quoted per. */
const baseUnits: Record<string, { readonly measure: string; readonly factor: number; readonly quantity: number }> = {
  g: { measure: "kg", factor: 1 / 1000, quantity: 1 },
  kg: { measure: "kg", factor: 1, quantity: 1 },
  mg: { measure: "kg", factor: 1 / 1_000_000, quantity: 1 },
  ml: { measure: "l", factor: 1 / 1000, quantity: 1 },
  cl: { measure: "l", factor: 1 / 100, quantity: 1 },
  l: { measure: "l", factor: 1, quantity: 1 },
  oz: { measure: "oz", factor: 1, quantity: 1 },
  lb: { measure: "lb", factor: 1, quantity: 1 }
}

/**
 * Price per standard unit (spec: basePrice), derived from the product weight, e.g. 500 g at
 * 2.50 → 5.00 per kg. Only given when the weight has a unit we can normalise.
 */
const basePrice = (data: ProductRecord): ResultEntity["basePrice"] => {
  if (!data.product_weight) return undefined
  const measure = parseMeasure(data.product_weight)
  const unit = measure ? baseUnits[measure.unit.toLowerCase()] : undefined
  if (!measure || !unit || measure.value <= 0) return undefined
  const amount = measure.value * unit.factor * (data.multipack ?? 1)
  const per = (p: number | null | undefined) => (p == null ? null : Math.round((p / amount) * 100) / 100)
  return {
    actual: { price: per(data.price), quantity: unit.quantity, measure: unit.measure },
    sale: { price: per(data.sale_price), quantity: unit.quantity, measure: unit.measure }
  }
}

export const toResultEntity = (product: StoredProduct): ResultEntityOut => {
  const d = product.data
  const images = product.images.map((i) => ({ original: i.url, thumbnail: null }))
  const firstType = d.product_type ? parseProductTypes(d.product_type)[0] : undefined
  const base = basePrice(d)
  return {
    kind: "product",
    entityType: "product",
    groupId: d.item_group_id ?? null,
    productId: product.productId,
    title: d.title ?? "",
    deeplink: d.link ?? null,
    brand: d.brand ?? null,
    // Text form here; the wire schema encodes it as Base64-URL like every category path.
    productType: firstType ?? null,
    ...(images.length > 0 ? { image: images[0] } : {}),
    images,
    price: { actual: d.price ?? null, sale: d.sale_price ?? null },
    ...(base ? { basePrice: base } : {}),
    energyEfficiencyClass: d.energy_efficiency_class ?? null,
    minEnergyEfficiencyClass: d.min_energy_efficiency_class ?? null,
    maxEnergyEfficiencyClass: d.max_energy_efficiency_class ?? null,
    custom_label_0: d.custom_label_0 ?? null,
    custom_label_1: d.custom_label_1 ?? null,
    custom_label_2: d.custom_label_2 ?? null,
    custom_label_3: d.custom_label_3 ?? null,
    custom_label_4: d.custom_label_4 ?? null,
    ...(d.availability ? { availability: d.availability } : {}),
    ...(d.color ? { color: d.color } : {}),
    ...(d.size ? { size: d.size } : {})
  }
}
