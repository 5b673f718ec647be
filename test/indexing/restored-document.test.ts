import { RAW_FEATURES } from "../../src/visual-space/SiteVisualSpaces.js"
import { describe, expect, it } from "vitest"
import { fittingTextVector, restoredDocument, textKey } from "../../src/indexing/ProductIndexer.js"
import type { ProductRecord } from "../../src/domain/Product.js"
import { embeddingText } from "../../src/model/ProductDocument.js"
import type { DerivedProduct, StoredProduct } from "../../src/model/StoredProduct.js"
import { TEXT_MODEL } from "../../src/services/text-embedder/TextModel.js"

const product = (version: number, title: string): StoredProduct => ({
  siteId: 1,
  productId: "p1",
  data: { title, price: 10 } as ProductRecord,
  images: [],
  version,
  textVersion: version,
  updatedAt: 0,
  createdAt: 0
})
const vector = (length: number = TEXT_MODEL.dimensions) => Float32Array.from({ length }, (_, i) => (i % 7) / 7)
const derived = (version: number, textVector: Float32Array | null, key?: string): DerivedProduct => ({
  siteId: 1,
  productId: "p1",
  version,
  textVector,
  ...(key === undefined ? {} : { textKey: key })
})

describe("the saved text vector a rebuild restores", () => {
  it("is the one made from this version, or from another with the same text by the same model", () => {
    const v = vector()
    expect(fittingTextVector(product(5, "Drill"), derived(5, v))).toBe(v)
    // A price change since: same text, so the older version's vector fits.
    expect(
      fittingTextVector(product(6, "Drill"), derived(5, v, textKey(embeddingText(product(5, "Drill").data))))
    ).toBe(v)
    expect(restoredDocument(product(6, "Drill"), derived(5, v, textKey("Drill")), [], RAW_FEATURES).vectors.text).toBe(
      v
    )
  })

  it("is none for another text, an unknown text, another model's vector, or nothing saved", () => {
    expect(fittingTextVector(product(6, "Hammer drill"), derived(5, vector(), textKey("Drill")))).toBeNull()
    expect(fittingTextVector(product(6, "Drill"), derived(5, vector()))).toBeNull()
    expect(fittingTextVector(product(5, "Drill"), derived(5, vector(512)))).toBeNull()
    expect(fittingTextVector(product(5, "Drill"), derived(5, null))).toBeNull()
    expect(fittingTextVector(product(5, "Drill"), null)).toBeNull()
    // Such a product is still restored, searchable by its words.
    const doc = restoredDocument(product(6, "Hammer drill"), null, [], RAW_FEATURES)
    expect(doc).toMatchObject({ productId: "p1", version: 6, text: { title: "Hammer drill" } })
    expect(doc.vectors.text).toBeUndefined()
  })
})
