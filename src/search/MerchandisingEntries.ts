import { Effect, Option } from "effect"
import { BadRequest, NotFound } from "../domain/Errors.js"
import { DEFAULT_PAGE_SIZE, MERCHANDISING_LIMITS, type Rule, type Synonym } from "../domain/Merchandising.js"
import type { Campaign } from "../domain/Site.js"
import {
  type EntryKind,
  type EntryKinds,
  MerchandisingStore,
  type StoredEntry
} from "../services/merchandising/MerchandisingStore.js"
import { indexBoosts } from "./Campaigns.js"
import { columnCondition, staticConditions } from "./Scope.js"
import { forgetSiteMerchandising } from "./SiteMerchandising.js"

/*
 * Managing a site's synonyms, rules and campaigns, as REST, MCP and the CLI expose it: the
 * checks a write must pass beyond its schema, bounds, pages, and this process's copy dropped
 * after each change.
 */

/** What differs between the kinds: names, bounds, what a list query looks in, what a write must also pass. */
interface KindRules<K extends EntryKind> {
  readonly noun: string
  readonly plural: string
  readonly limit: number
  readonly texts: (value: EntryKinds[K], id: string) => ReadonlyArray<string>
  /** Checks the schema cannot make alone (columns exist); `at` prefixes the field named in an error. */
  readonly check: (value: EntryKinds[K], at: string) => Effect.Effect<void, BadRequest>
}

const synonymPhrases = (s: Synonym): ReadonlyArray<string> =>
  s.type === "synonym" ? s.synonyms : s.type === "oneWaySynonym" ? [s.input, ...s.synonyms] : [s.word, ...s.corrections]

const field = (at: string, name: string) => (at === "" ? name : `${at}.${name}`)

/** A rule's filters and boosts name real columns with values of their kind, or a search under it would fail. */
const checkRule = (rule: Rule, at: string) =>
  Effect.gen(function* () {
    for (const [i, condition] of (rule.conditions ?? []).entries())
      for (const [j, clause] of (condition.filters ?? []).entries())
        yield* columnCondition(field(at, `conditions.${i}.filters.${j}`), clause.column, clause.values)
    yield* staticConditions(field(at, "consequence.filters"), rule.consequence.filters)
    yield* indexBoosts(field(at, "consequence.boosts"), rule.consequence.boosts ?? [])
  })

/** A campaign's filters and boosts name real columns (the sites file's campaigns are checked when searched). */
const checkCampaign = (campaign: Campaign, at: string) =>
  Effect.gen(function* () {
    yield* staticConditions(field(at, "staticFilters"), campaign.staticFilters)
    yield* indexBoosts(field(at, "boosts"), campaign.boosts ?? [])
  })

const KINDS: { readonly [K in EntryKind]: KindRules<K> } = {
  synonym: {
    noun: "synonym",
    plural: "synonyms",
    limit: MERCHANDISING_LIMITS.synonyms,
    texts: (value) => synonymPhrases(value),
    check: () => Effect.void
  },
  rule: {
    noun: "rule",
    plural: "rules",
    limit: MERCHANDISING_LIMITS.rules,
    texts: (rule, id) => [
      id,
      ...(rule.description === undefined ? [] : [rule.description]),
      ...(rule.conditions ?? []).flatMap((c) => (c.pattern === undefined ? [] : [c.pattern])),
      ...(rule.consequence.promote ?? []).map((p) => p.productId),
      ...(rule.consequence.hide ?? []).map((p) => p.productId)
    ],
    check: checkRule
  },
  campaign: {
    noun: "campaign",
    plural: "campaigns",
    limit: MERCHANDISING_LIMITS.campaigns,
    texts: (campaign, id) => [id, ...(campaign.name === undefined ? [] : [campaign.name])],
    check: checkCampaign
  }
}

const iso = (ms: number) => new Date(ms).toISOString()
const record = <K extends EntryKind>(entry: StoredEntry<K>) => ({
  id: entry.id,
  updatedAt: iso(entry.updatedAt),
  ...entry.value
})

const full = (kind: KindRules<EntryKind>) =>
  new BadRequest({
    message: `${kind.plural}: this site would hold more than ${kind.limit} ${kind.plural}, the most it may; delete some first`
  })

export const putEntry = <K extends EntryKind>(
  siteId: number,
  kindName: K,
  id: string,
  body: EntryKinds[K] & { readonly id?: string | undefined }
) =>
  Effect.gen(function* () {
    const { id: echoed, ...value } = body
    if (echoed !== undefined && echoed !== id)
      return yield* new BadRequest({ message: `id: "${echoed}" must be the path's id "${id}" (or left out)` })
    return yield* writeEntry(siteId, kindName, id, value as unknown as EntryKinds[K])
  })

/** Checks and writes one entry; drops this process's copy of the site's set. */
export const writeEntry = <K extends EntryKind>(siteId: number, kindName: K, id: string, value: EntryKinds[K]) =>
  Effect.gen(function* () {
    const kind = KINDS[kindName] as KindRules<K>
    yield* kind.check(value, "")
    const store = yield* MerchandisingStore
    const now = Date.now()
    const outcome = yield* store.put(siteId, kindName, { id, value, updatedAt: now }, kind.limit)
    if (outcome === "full") return yield* full(kind as KindRules<EntryKind>)
    yield* forgetSiteMerchandising(siteId)
    return { id, updatedAt: iso(now), created: outcome === "created" }
  })

export const getEntry = <K extends EntryKind>(siteId: number, kindName: K, id: string) =>
  Effect.gen(function* () {
    const store = yield* MerchandisingStore
    const entry = yield* store.get(siteId, kindName, id)
    if (Option.isNone(entry)) return yield* new NotFound({ message: `no ${KINDS[kindName].noun} "${id}" on this site` })
    return record(entry.value)
  })

export const removeEntry = (siteId: number, kindName: EntryKind, id: string) =>
  Effect.gen(function* () {
    const store = yield* MerchandisingStore
    if (!(yield* store.remove(siteId, kindName, id)))
      return yield* new NotFound({ message: `no ${KINDS[kindName].noun} "${id}" on this site` })
    yield* forgetSiteMerchandising(siteId)
    return { id, deleted: true as const }
  })

export const listEntries = <K extends EntryKind>(
  siteId: number,
  kindName: K,
  params: {
    readonly query?: string | undefined
    readonly page?: number | undefined
    readonly pageSize?: number | undefined
  }
) =>
  Effect.gen(function* () {
    const store = yield* MerchandisingStore
    const kind = KINDS[kindName] as KindRules<K>
    const word = params.query?.trim().toLowerCase() ?? ""
    const entries = (yield* store.all(siteId, kindName)).filter(
      (entry) => word === "" || kind.texts(entry.value, entry.id).some((text) => text.toLowerCase().includes(word))
    )
    const page = params.page ?? 0
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE
    return {
      items: entries.slice(page * pageSize, (page + 1) * pageSize).map(record),
      total: entries.length,
      page,
      pageSize
    }
  })

export const batchEntries = <K extends EntryKind>(
  siteId: number,
  kindName: K,
  entries: ReadonlyArray<EntryKinds[K] & { readonly id: string }>,
  replace: boolean
) =>
  Effect.gen(function* () {
    const kind = KINDS[kindName] as KindRules<K>
    for (const [i, entry] of entries.entries()) yield* kind.check(entry, `${kind.plural}.${i}`)
    const store = yield* MerchandisingStore
    const now = Date.now()
    const stored = entries.map(({ id, ...value }) => ({ id, value: value as unknown as EntryKinds[K], updatedAt: now }))
    const outcome = yield* store.batch(siteId, kindName, stored, replace, kind.limit)
    if (outcome === "full") return yield* full(kind as KindRules<EntryKind>)
    yield* forgetSiteMerchandising(siteId)
    return { written: entries.length, replacedExisting: replace, updatedAt: iso(now) }
  })
