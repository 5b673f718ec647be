import { Effect } from "effect"
import type { ResultEntity, VariantSummary } from "../domain/ResultEntity.js"
import { colorNames, VARIANT_GROUP_COLUMN } from "../model/Columns.js"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { toResultEntity } from "./ResultEntities.js"

/**
 * Result entities for ids in ranking order, read from the record of truth (never stale); a
 * product with variants (an item group of two or more) carries the group's size and its
 * variants' colours and sizes, so a tile can show swatches.
 */
export const loadEntities = (siteId: number, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const entities = (yield* store.getMany(siteId, ids)).map(toResultEntity)
    const groups = [...new Set(entities.flatMap((e) => (e.groupId ? [e.groupId] : [])))]
    if (groups.length === 0) return entities
    const summaries = yield* variantSummaries(siteId, groups)
    return entities.map((entity): ResultEntity => {
      const summary = entity.groupId ? summaries.get(entity.groupId) : undefined
      return summary === undefined ? entity : { ...entity, variants: summary }
    })
  })

/** Per item group with two or more products: their count, colours and sizes (first seen first). */
const variantSummaries = (siteId: number, groups: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const index = yield* CatalogIndex
    const store = yield* CatalogStore
    const members = yield* index.matchIds({
      siteId,
      filter: { must: [{ column: VARIANT_GROUP_COLUMN, anyOf: groups }], mustNot: [] }
    })
    const products = yield* store.getMany(siteId, [...members].sort())
    const summaries = new Map<string, { count: number; colors: Set<string>; sizes: Set<string> }>()
    for (const { data } of products) {
      const group = data.item_group_id
      if (!group) continue
      let summary = summaries.get(group)
      if (summary === undefined) summaries.set(group, (summary = { count: 0, colors: new Set(), sizes: new Set() }))
      summary.count++
      for (const color of colorNames(data.color)) summary.colors.add(color)
      if (data.size) summary.sizes.add(data.size)
    }
    const out = new Map<string, VariantSummary>()
    for (const [group, { count, colors, sizes }] of summaries)
      if (count > 1) out.set(group, { count, colors: [...colors], sizes: [...sizes] })
    return out
  })
