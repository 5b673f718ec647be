import type { DynamicFilter, StaticFilters } from "../domain/Filters.js"
import type { Anchoring, Rule, RuleCondition } from "../domain/Merchandising.js"
import type { Boost } from "../domain/Site.js"
import { indexBoosts } from "./Campaigns.js"
import { wordKeys } from "./Synonyms.js"

/** A rule as searches use it: its conditions' patterns already split into word keys (once, not per search). */
export interface RuleEntryValue {
  readonly id: string
  readonly rule: Rule
  /** Per condition, in order: its pattern's word keys (undefined: no pattern). */
  readonly patterns: ReadonlyArray<ReadonlyArray<string> | undefined>
}

export const compileRule = (id: string, rule: Rule): RuleEntryValue => ({
  id,
  rule,
  patterns: (rule.conditions ?? []).map((c) => (c.pattern === undefined ? undefined : wordKeys(c.pattern)))
})

/** What the request brings that a rule's conditions look at. */
export interface RuleContext {
  readonly text: string
  readonly campaign: number
  readonly staticFilters?: StaticFilters | undefined
  readonly dynamicFilters?: ReadonlyArray<DynamicFilter> | undefined
  /** Epoch ms. */
  readonly now: number
}

/** The fired rules' consequences, combined in their order. */
export interface FiredRules {
  readonly ids: ReadonlyArray<string>
  /** The query after the rules' word removals and replacements. */
  readonly text: string
  readonly filters: ReadonlyArray<StaticFilters>
  readonly boosts: ReadonlyArray<typeof Boost.Type>
  readonly hide: ReadonlyArray<string>
  /** In rule order; a product promoted twice keeps its first place. `by`: the rule's id. */
  readonly promote: ReadonlyArray<{ readonly productId: string; readonly position: number; readonly by: string }>
  /** The first fired rule's redirect. */
  readonly redirect: string | undefined
  readonly userData: ReadonlyArray<Readonly<Record<string, unknown>>>
}

const NONE_FIRED: FiredRules = {
  ids: [],
  text: "",
  filters: [],
  boosts: [],
  hide: [],
  promote: [],
  redirect: undefined,
  userData: []
}

/** Rules in the order they fire: priority, highest first, then id. */
export const ruleOrder = (a: RuleEntryValue, b: RuleEntryValue): number =>
  (b.rule.priority ?? 0) - (a.rule.priority ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const placed = (pattern: ReadonlyArray<string>, query: ReadonlyArray<string>, anchoring: Anchoring): boolean => {
  const at = (start: number) => pattern.every((stem, i) => query[start + i] === stem)
  switch (anchoring) {
    case "is":
      return pattern.length === query.length && at(0)
    case "startsWith":
      return pattern.length <= query.length && at(0)
    case "endsWith":
      return pattern.length <= query.length && at(query.length - pattern.length)
    case "contains":
      for (let start = 0; start + pattern.length <= query.length; start++) if (at(start)) return true
      return false
  }
}

const filtered = (
  clause: { readonly column: string; readonly values: ReadonlyArray<string> },
  context: RuleContext
) => {
  const requested = [
    ...(context.staticFilters?.included ?? []),
    ...(context.dynamicFilters ?? []).flatMap((f) =>
      Array.isArray(f.values) ? [f as { column: string; values: ReadonlyArray<string> }] : []
    )
  ]
  return requested.some((f) => f.column === clause.column && f.values.some((v) => clause.values.includes(v)))
}

const holds = (
  condition: RuleCondition,
  pattern: ReadonlyArray<string> | undefined,
  query: ReadonlyArray<string>,
  context: RuleContext
): boolean =>
  (pattern === undefined || placed(pattern, query, condition.anchoring!)) &&
  (condition.campaign === undefined || condition.campaign === context.campaign) &&
  (condition.filters ?? []).every((clause) => filtered(clause, context))

/** Whether the rule is on at `now`: enabled, inside one of its validity windows (if it has any). */
export const inEffect = (rule: Rule, now: number): boolean =>
  rule.enabled !== false &&
  (rule.validity === undefined || rule.validity.some((v) => Date.parse(v.from) <= now && now < Date.parse(v.until)))

/** The query with a rule's word edits applied, word by word on their stems. */
const edited = (text: string, edit: NonNullable<Rule["consequence"]["query"]>): string => {
  const removed = new Set((edit.remove ?? []).map((word) => wordKeys(word)[0]))
  const replaced = new Map((edit.replace ?? []).map((r) => [wordKeys(r.word)[0], r.with]))
  return text
    .split(/\s+/)
    .flatMap((token) => {
      const stem = wordKeys(token)[0]
      if (stem === undefined) return [token]
      if (removed.has(stem)) return []
      return [replaced.get(stem) ?? token]
    })
    .join(" ")
    .trim()
}

/**
 * The rules that fire for a request, in order (see ruleOrder), and what they do together. A
 * rule fires when it is in effect and any of its conditions holds on the query as typed (a rule
 * without conditions fires for every request); its query edits apply in that order.
 */
export const fireRules = (rules: ReadonlyArray<RuleEntryValue>, context: RuleContext): FiredRules => {
  // Most sites have no rules: no words to split then.
  if (rules.length === 0) return { ...NONE_FIRED, text: context.text }
  const query = wordKeys(context.text)
  const fired = rules.filter(
    (entry) =>
      inEffect(entry.rule, context.now) &&
      (entry.rule.conditions === undefined ||
        entry.rule.conditions.length === 0 ||
        entry.rule.conditions.some((c, i) => holds(c, entry.patterns[i], query, context)))
  )
  let text = context.text
  const promoted = new Set<string>()
  const promote: Array<{ productId: string; position: number; by: string }> = []
  for (const { id, rule } of fired) {
    const c = rule.consequence
    if (c.query !== undefined) text = edited(text, c.query)
    for (const p of c.promote ?? []) {
      if (promoted.has(p.productId)) continue
      promoted.add(p.productId)
      promote.push({ ...p, by: id })
    }
  }
  const hide = [...new Set(fired.flatMap(({ rule }) => (rule.consequence.hide ?? []).map((h) => h.productId)))]
  return {
    ids: fired.map(({ id }) => id),
    text,
    filters: fired.flatMap(({ rule }) => (rule.consequence.filters === undefined ? [] : [rule.consequence.filters])),
    boosts: fired.flatMap(({ rule }) => rule.consequence.boosts ?? []),
    hide,
    promote: promote.filter((p) => !hide.includes(p.productId)),
    redirect: fired.find(({ rule }) => rule.consequence.redirect !== undefined)?.rule.consequence.redirect?.url,
    userData: fired.flatMap(({ rule }) => (rule.consequence.userData === undefined ? [] : [rule.consequence.userData]))
  }
}

/**
 * A listing's ids with the promoted products at their positions: each takes the first free
 * place from its position on, in promotion order; one whose place falls at or beyond `window`
 * (the depth of the ranking read) is left out; on a short listing the rest follow its end.
 */
export const withPromotions = (
  ranked: ReadonlyArray<string>,
  promote: ReadonlyArray<{ readonly productId: string; readonly position: number }>,
  window: number
): Array<string> => {
  const moved = new Set(promote.map((p) => p.productId))
  const listing = ranked.filter((id) => !moved.has(id))
  const places = new Map<number, string>()
  for (const { productId, position } of promote) {
    let place = position
    while (places.has(place)) place++
    if (place < window) places.set(place, productId)
  }
  const result: Array<string> = []
  let next = 0
  while (next < listing.length || places.size > 0) {
    const promoted = places.get(result.length)
    if (promoted !== undefined) {
      places.delete(result.length)
      result.push(promoted)
    } else if (next < listing.length) result.push(listing[next++])
    else {
      // The listing ended before the remaining places: they follow it, in place order.
      for (const place of [...places.keys()].sort((a, b) => a - b)) result.push(places.get(place)!)
      break
    }
  }
  return result
}

/** The fired rules' boosts as index boosts (their columns and values were checked when the rule was written). */
export const ruleBoosts = (fired: FiredRules) => indexBoosts("consequence.boosts", fired.boosts)
