import { Effect } from "effect"
import { CatalogIndex } from "../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../src/model/Filter.js"
import type { IndexDocument } from "../../src/model/IndexDocument.js"
import { EmbeddedCatalogIndex } from "../../src/services/catalog-index/EmbeddedCatalogIndex.js"
import type { EmbeddedIndexOverrides } from "../../src/services/catalog-index/embedded/EmbeddedIndexOptions.js"
import { TextEmbedder } from "../../src/services/text-embedder/TextEmbedder.js"
import type { EvalQuery } from "./Dataset.js"
import { directRankings, type DirectConfig, type Timed } from "./Runs.js"

/** Every document of the site as the service indexed it (text fields, payload, text vector). */
export const indexedDocuments = (siteId: number) =>
  Effect.gen(function* () {
    const index = yield* CatalogIndex
    const docs: Array<IndexDocument> = []
    let after: string | undefined
    do {
      const page = yield* index.scroll(siteId, emptyFilter, 2000, after).pipe(Effect.orDie)
      docs.push(...page.docs)
      after = page.next ?? undefined
    } while (after !== undefined)
    return docs
  })

/** Replaces each document's text vector by the embedding of `text(doc)` (an embedding-text experiment). */
export const reembed = (docs: ReadonlyArray<IndexDocument>, text: (doc: IndexDocument) => string) =>
  Effect.gen(function* () {
    const embedder = yield* TextEmbedder
    const out: Array<IndexDocument> = []
    for (let i = 0; i < docs.length; i += 512) {
      const chunk = docs.slice(i, i + 512)
      const vectors = yield* embedder.embed(chunk.map(text)).pipe(Effect.orDie)
      chunk.forEach((doc, k) => out.push({ ...doc, vectors: { ...doc.vectors, text: vectors[k] } }))
    }
    return out
  })

/**
 * A second, private embedded index with other tuning, fed the same documents (no
 * re-embedding): runs each config against it. NOT the product path: an experiment for defaults.
 */
export const runOnVariantIndex = (
  overrides: EmbeddedIndexOverrides,
  docs: ReadonlyArray<IndexDocument>,
  siteId: number,
  queries: ReadonlyArray<EvalQuery>,
  vectors: ReadonlyMap<string, Float32Array>,
  configs: ReadonlyArray<DirectConfig>
) =>
  Effect.gen(function* () {
    const index = yield* CatalogIndex
    const started = performance.now()
    for (let i = 0; i < docs.length; i += 1000) yield* index.upsert(docs.slice(i, i + 1000)).pipe(Effect.orDie)
    const buildMs = performance.now() - started
    const runs: Array<{ config: DirectConfig; run: Timed }> = []
    for (const config of configs)
      runs.push({ config, run: yield* directRankings(index, siteId, queries, vectors, config) })
    return { buildMs, runs }
  }).pipe(Effect.provide(EmbeddedCatalogIndex.layerWith(overrides)))
