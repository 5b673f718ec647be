import { describe } from "@effect/vitest"
import type { Layer } from "effect"
import type { CatalogIndex } from "../../../src/services/catalog-index/CatalogIndex.js"
import { filterConformance } from "./conformance-filters.js"
import { hybridConformance } from "./conformance-hybrid.js"
import { lifecycleConformance } from "./conformance-lifecycle.js"
import { lexicalConformance } from "./conformance-lexical.js"
import { listingConformance } from "./conformance-listing.js"

/**
 * The behaviour every CatalogIndex layer must show, exercised through the interface only
 * with small hand-made documents and 4-d vectors. Each test builds a fresh `layer`, so a
 * layer on a server must start from an empty collection (e.g. a fresh collection name).
 */
export const catalogIndexConformance = (name: string, layer: Layer.Layer<CatalogIndex>) =>
  describe(`CatalogIndex conformance: ${name}`, () => {
    describe("words", () => lexicalConformance(layer))
    describe("hybrid ranking", () => hybridConformance(layer))
    describe("filters and facets", () => filterConformance(layer))
    describe("listings: sort, pages, groups, exact facets", () => listingConformance(layer))
    describe("lifecycle and tenancy", () => lifecycleConformance(layer))
  })
