import { Effect } from "effect"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { toResultEntity } from "./ResultEntities.js"

/** Result entities for ids in ranking order, read from the record of truth (never stale). */
export const loadEntities = (siteId: number, ids: ReadonlyArray<string>) =>
  Effect.flatMap(CatalogStore, (store) => store.getMany(siteId, ids)).pipe(
    Effect.map((products) => products.map(toResultEntity))
  )
