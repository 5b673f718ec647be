import { describe, expect, it } from "vitest"
import { measurePrecision } from "./measure.js"

// The precision suite: a 444-product catalog whose departments share near-miss words (sneakers and
// speakers, drill and grill, beans and jeans, pan and pantry), run through POST /text-search and
// through MiniSearch (fuzzy and prefix) on the same catalog.
describe("precision on a catalog with near-miss vocabularies", () => {
  it("keeps wrong departments out of the top 10, finds what a shopper expects, one product per group", async () => {
    const report = await measurePrecision()
    expect(report.ours.unwanted, "unwanted products in all top-10 pages").toBe(0)
    expect(report.ours.recall, "share of expected products found in the top 10").toBeGreaterThanOrEqual(0.93)
    expect(report.ours.crowdedTop3, "pages opening with three variants of one item group").toBe(0)
    // The peer in the same run: fuzzy matching and prefix search put near misses on its pages.
    expect(report.minisearch.unwanted).toBeGreaterThan(100)
  }, 300_000)
})
