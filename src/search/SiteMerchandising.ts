import { Effect } from "effect"
import type { Campaign } from "../domain/Site.js"
import { MerchandisingStore, type MerchandisingStoreService } from "../services/merchandising/MerchandisingStore.js"
import { compileRule, type RuleEntryValue, ruleOrder } from "./QueryRules.js"
import { compileSynonyms, type SynonymTable } from "./Synonyms.js"

/** A site's merchandising as searches use it. */
export interface SiteMerchandising {
  readonly synonyms: SynonymTable
  /** In firing order (see ruleOrder). */
  readonly rules: ReadonlyArray<RuleEntryValue>
  /** By id; empty until the site's campaigns are first written through the API (the sites file's apply). */
  readonly campaigns: ReadonlyMap<number, Campaign>
}

interface Cached extends SiteMerchandising {
  readonly version: number
  checkedAt: number
}

/**
 * How long a process trusts its compiled copy before asking the store's version again: a change
 * made through another process is in effect here within this (one read of a number per site
 * per interval; the set itself is read again only when it changed).
 */
const FRESH_MS = 250

const EMPTY: SiteMerchandising = { synonyms: new Map(), rules: [], campaigns: new Map() }

/** One cache per store (an api in a test shares its process with others). */
const caches = new WeakMap<MerchandisingStoreService, Map<number, Cached>>()

const cacheOf = (store: MerchandisingStoreService) => {
  let cache = caches.get(store)
  if (cache === undefined) caches.set(store, (cache = new Map()))
  return cache
}

const load = (store: MerchandisingStoreService, siteId: number, version: number) =>
  Effect.map(
    Effect.all([store.all(siteId, "synonym"), store.all(siteId, "rule"), store.all(siteId, "campaign")], {
      concurrency: 3
    }),
    ([synonyms, rules, campaigns]): Cached => ({
      version,
      checkedAt: Date.now(),
      synonyms: compileSynonyms(synonyms.map((s) => s.value)),
      rules: rules.map(({ id, value }) => compileRule(id, value)).sort(ruleOrder),
      campaigns: new Map(campaigns.map(({ value }) => [value.id, value]))
    })
  )

/**
 * The site's synonyms and rules, compiled. A store that cannot be read leaves searches with the
 * last copy this process had (or none), logged: merchandising never fails a search.
 */
export const siteMerchandising = (siteId: number): Effect.Effect<SiteMerchandising, never, MerchandisingStore> =>
  Effect.gen(function* () {
    const store = yield* MerchandisingStore
    const cache = cacheOf(store)
    const cached = cache.get(siteId)
    const now = Date.now()
    if (cached !== undefined && now - cached.checkedAt < FRESH_MS) return cached
    return yield* store.version(siteId).pipe(
      Effect.flatMap((version) => {
        if (cached !== undefined && cached.version === version) {
          cached.checkedAt = now
          return Effect.succeed<SiteMerchandising>(cached)
        }
        return Effect.tap(load(store, siteId, version), (fresh) => Effect.sync(() => cache.set(siteId, fresh)))
      }),
      Effect.catchAll((error) =>
        Effect.as(Effect.logWarning("merchandising not read; searching with the last copy", error), cached ?? EMPTY)
      )
    )
  })

/** Drops this process's copy of the site's set, so its own change is in effect at once. */
export const forgetSiteMerchandising = (siteId: number) =>
  Effect.map(MerchandisingStore, (store) => void cacheOf(store).delete(siteId))
