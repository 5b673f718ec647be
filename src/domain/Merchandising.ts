import { Schema } from "effect"
import { StaticFilters } from "./Filters.js"
import { maxChars } from "./Product.js"
import { Boost, Campaign } from "./Site.js"

/**
 * A site's merchandising beside its catalog: synonyms and query rules, managed over REST and
 * applied at query time (nothing is re-indexed). The shapes follow what shops know from the
 * hosted engines (Algolia's synonyms and rules), with product ids where they write object ids.
 */

/** Per-site bounds: every search reads the whole set, so it must stay small beside the catalog. */
export const MERCHANDISING_LIMITS = {
  synonyms: 10_000,
  rules: 1_000,
  campaigns: 100,
  /** Entries one batch request may carry. */
  batch: 10_000,
  /** Words of a phrase in a synonym (a shopper's multi-word term, not a sentence). */
  phraseWords: 5,
  /** Alternatives of one synonym entry. */
  alternatives: 50
} as const

/** An entry's id: as in a URL path segment, without escaping trouble. */
export const EntryId = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, {
    message: () => "must be 1–100 characters of letters, digits, '.', '_', ':' or '-', starting with a letter or digit"
  })
).annotations({ description: "Your id for the entry (1–100 of A–Z a–z 0–9 . _ : -)" })

/** The words of a phrase as a shopper separates them (a hyphenated word is one). */
const typedWords = (phrase: string): Array<string> =>
  phrase
    .trim()
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))

/** A word or phrase a shopper types: at least one word with a letter or digit, at most `phraseWords`. */
const Phrase = Schema.String.pipe(
  maxChars(100),
  Schema.filter((phrase) => {
    const words = typedWords(phrase).length
    if (words === 0) return "must hold at least one word with a letter or digit"
    return (
      words <= MERCHANDISING_LIMITS.phraseWords ||
      `must hold at most ${MERCHANDISING_LIMITS.phraseWords} words (it has ${words})`
    )
  })
)

const OneWord = Phrase.pipe(Schema.filter((word) => typedWords(word).length === 1 || "must be a single word"))

const Alternatives = <A, I>(of: Schema.Schema<A, I>, min: number) =>
  Schema.Array(of).pipe(
    Schema.minItems(min, { message: () => `must list at least ${min}` }),
    Schema.maxItems(MERCHANDISING_LIMITS.alternatives, {
      message: () => `must list at most ${MERCHANDISING_LIMITS.alternatives}`
    })
  )

/** Every phrase finds what each of the others finds. */
export const TwoWaySynonym = Schema.Struct({
  type: Schema.Literal("synonym"),
  synonyms: Alternatives(Phrase, 2)
})

/** `input` also finds what the synonyms find; the synonyms do not find what `input` finds. */
export const OneWaySynonym = Schema.Struct({
  type: Schema.Literal("oneWaySynonym"),
  input: Phrase,
  synonyms: Alternatives(Phrase, 1)
})

/** `word` also finds its corrections, ranked below what `word` itself finds (a known misspelling, a brand's nickname). */
export const AltCorrection = Schema.Struct({
  type: Schema.Literal("altCorrection"),
  word: OneWord,
  corrections: Alternatives(OneWord, 1)
})

export const Synonym = Schema.Union(TwoWaySynonym, OneWaySynonym, AltCorrection).annotations({
  identifier: "Synonym",
  description:
    'One of {"type": "synonym", "synonyms": [...]}, {"type": "oneWaySynonym", "input", "synonyms": [...]}, ' +
    '{"type": "altCorrection", "word", "corrections": [...]}'
})
export type Synonym = typeof Synonym.Type

/** A stored synonym as the API shows it. */
export const SynonymEntry = Schema.extend(Schema.Struct({ id: EntryId }), Synonym).annotations({
  identifier: "SynonymEntry"
})
export type SynonymEntry = typeof SynonymEntry.Type

const ProductRef = Schema.Struct({ productId: Schema.NonEmptyString.pipe(maxChars(200)) })

/** How a condition's pattern is placed in the query, word by word (plural and case do not matter). */
export const Anchoring = Schema.Literal("is", "startsWith", "endsWith", "contains")
export type Anchoring = typeof Anchoring.Type

export const RuleCondition = Schema.Struct({
  /** Words of the query; empty with `is`: the condition holds for a browse (no words). */
  pattern: Schema.optionalWith(Schema.String.pipe(maxChars(200)), { exact: true }),
  anchoring: Schema.optionalWith(Anchoring, { exact: true }),
  /** Holds only under this campaign (the request's, or the site's default). */
  campaign: Schema.optionalWith(Schema.Int, { exact: true }),
  /** Holds only when the request's filters include each clause's column with one of its values. */
  filters: Schema.optionalWith(
    Schema.Array(Schema.Struct({ column: Schema.NonEmptyString, values: Schema.NonEmptyArray(Schema.String) })).pipe(
      Schema.maxItems(10)
    ),
    { exact: true }
  )
}).pipe(
  Schema.filter((c) => {
    if ((c.pattern === undefined) !== (c.anchoring === undefined)) return "pattern and anchoring go together"
    if (c.pattern !== undefined && c.anchoring !== "is" && typedWords(c.pattern).length === 0)
      return "pattern: must hold a searchable word (only anchoring 'is' takes an empty pattern: a browse)"
    if (c.pattern === undefined && c.campaign === undefined && c.filters === undefined)
      return "a condition needs a pattern, a campaign or filters"
    return true
  })
)
export type RuleCondition = typeof RuleCondition.Type

/** Words of the query changed before it is searched. */
export const QueryEdit = Schema.Struct({
  remove: Schema.optionalWith(Schema.Array(OneWord).pipe(Schema.maxItems(20)), { exact: true }),
  replace: Schema.optionalWith(Schema.Array(Schema.Struct({ word: OneWord, with: Phrase })).pipe(Schema.maxItems(20)), {
    exact: true
  })
})

export const RuleConsequence = Schema.Struct({
  /** Products placed at these positions of a relevance listing (0 = first), if they are in the request's scope. */
  promote: Schema.optionalWith(
    Schema.Array(Schema.extend(ProductRef, Schema.Struct({ position: Schema.Int.pipe(Schema.between(0, 999)) }))).pipe(
      Schema.maxItems(50)
    ),
    { exact: true }
  ),
  /** Products never listed for the query. */
  hide: Schema.optionalWith(Schema.Array(ProductRef).pipe(Schema.maxItems(100)), { exact: true }),
  /** Narrows the search, as a request's static filters do. */
  filters: Schema.optionalWith(StaticFilters, { exact: true }),
  /** Added to the score of products whose column holds a value; a negative weight buries them. */
  boosts: Schema.optionalWith(Schema.Array(Boost).pipe(Schema.maxItems(20)), { exact: true }),
  query: Schema.optionalWith(QueryEdit, { exact: true }),
  redirect: Schema.optionalWith(
    Schema.Struct({
      url: Schema.String.pipe(Schema.filter((u) => URL.canParse(u) || "must be an absolute URL"))
    }),
    { exact: true }
  ),
  /** Returned with the results as it is (a banner, a message): any JSON object. */
  userData: Schema.optionalWith(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }).pipe(
      Schema.filter((data) => JSON.stringify(data).length <= 8_192 || "must be at most 8 KB of JSON")
    ),
    { exact: true }
  )
}).pipe(Schema.filter((c) => Object.keys(c).length > 0 || "must have at least one consequence"))
export type RuleConsequence = typeof RuleConsequence.Type

const Instant = Schema.String.pipe(
  Schema.filter(
    (s) =>
      (/^\d{4}-\d\d-\d\dT/.test(s) && !Number.isNaN(Date.parse(s))) ||
      "must be an ISO 8601 date-time, e.g. 2026-12-01T00:00:00Z"
  )
)

export const Validity = Schema.Struct({ from: Instant, until: Instant }).pipe(
  Schema.filter((v) => Date.parse(v.from) < Date.parse(v.until) || "until must be after from")
)

export const Rule = Schema.Struct({
  description: Schema.optionalWith(Schema.String.pipe(maxChars(500)), { exact: true }),
  /** The rule fires when any condition holds; none: for every search and browse. */
  conditions: Schema.optionalWith(Schema.Array(RuleCondition).pipe(Schema.maxItems(25)), { exact: true }),
  consequence: RuleConsequence,
  /** When the rule is in effect (any of the windows); absent: always. */
  validity: Schema.optionalWith(Schema.Array(Validity).pipe(Schema.maxItems(10)), { exact: true }),
  enabled: Schema.optionalWith(Schema.Boolean, { exact: true }),
  /** Rules fire by priority, highest first, then by id; default 0. */
  priority: Schema.optionalWith(Schema.Int.pipe(Schema.between(-1000, 1000)), { exact: true })
}).annotations({ identifier: "Rule" })
export type Rule = typeof Rule.Type

export const RuleEntry = Schema.extend(Schema.Struct({ id: EntryId }), Rule).annotations({ identifier: "RuleEntry" })
export type RuleEntry = typeof RuleEntry.Type

/** The wire: what the endpoints take and answer. A body may repeat its path's id (a GET's answer sent back). */
const EchoedId = Schema.Struct({ id: Schema.optionalWith(EntryId, { exact: true }) })
const Stamped = Schema.Struct({
  id: EntryId,
  /** When it was last written (ISO 8601). */
  updatedAt: Schema.String
})

export const SynonymBody = Schema.extend(EchoedId, Synonym).annotations({ identifier: "SynonymBody" })
export const SynonymRecord = Schema.extend(Stamped, Synonym).annotations({ identifier: "SynonymRecord" })
export type SynonymRecord = typeof SynonymRecord.Type
export const RuleBody = Schema.extend(EchoedId, Rule).annotations({ identifier: "RuleBody" })
export const RuleRecord = Schema.extend(Stamped, Rule).annotations({ identifier: "RuleRecord" })
export type RuleRecord = typeof RuleRecord.Type

export const SavedEntry = Schema.Struct({
  id: Schema.String,
  updatedAt: Schema.String,
  /** false: it replaced the entry of that id. */
  created: Schema.Boolean
}).annotations({ identifier: "SavedEntry" })

export const DeletedEntry = Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) }).annotations({
  identifier: "DeletedEntry"
})

const PageNumber = Schema.NumberFromString.pipe(
  Schema.filter((n) => (Number.isInteger(n) && n >= 0 && n <= 100_000) || "must be an integer from 0 to 100000")
)
const PageSize = Schema.NumberFromString.pipe(
  Schema.filter((n) => (Number.isInteger(n) && n >= 1 && n <= 1_000) || "must be an integer from 1 to 1000")
)

/** GET /synonyms and GET /rules: a page of the entries (by id), optionally those holding a word. */
export const EntryListParams = Schema.Struct({
  query: Schema.optionalWith(Schema.String.pipe(maxChars(100)), { exact: true }),
  page: Schema.optionalWith(PageNumber, { exact: true }),
  pageSize: Schema.optionalWith(PageSize, { exact: true })
})
export type EntryListParams = typeof EntryListParams.Type
export const DEFAULT_PAGE_SIZE = 100

const listOf = <A, I>(item: Schema.Schema<A, I>, identifier: string) =>
  Schema.Struct({
    items: Schema.Array(item),
    /** Entries matching the query, on every page. */
    total: Schema.Int,
    page: Schema.Int,
    pageSize: Schema.Int
  }).annotations({ identifier })

export const SynonymList = listOf(SynonymRecord, "SynonymList")
export const RuleList = listOf(RuleRecord, "RuleList")

const BatchOf = <A, I>(entry: Schema.Schema<A, I>) =>
  Schema.Array(entry).pipe(
    Schema.maxItems(MERCHANDISING_LIMITS.batch, {
      message: () => `must hold at most ${MERCHANDISING_LIMITS.batch} entries (send more in several batches)`
    })
  )

export const SynonymBatch = Schema.Struct({
  synonyms: BatchOf(SynonymEntry),
  /** true: the site's synonyms become exactly these; false (default): these are added or replace theirs by id. */
  replaceExisting: Schema.optionalWith(Schema.Boolean, { exact: true })
}).annotations({ identifier: "SynonymBatch" })
export const RuleBatch = Schema.Struct({
  rules: BatchOf(RuleEntry),
  replaceExisting: Schema.optionalWith(Schema.Boolean, { exact: true })
}).annotations({ identifier: "RuleBatch" })

export const BatchResult = Schema.Struct({
  /** Entries written. */
  written: Schema.Int,
  /** Whether the kind's other entries were removed. */
  replacedExisting: Schema.Boolean,
  updatedAt: Schema.String
}).annotations({ identifier: "BatchResult" })

/** The same as an MCP tool's arguments (JSON numbers). */
export const EntryListInput = Schema.Struct({
  query: Schema.optionalWith(Schema.String.pipe(maxChars(100)), { exact: true }),
  page: Schema.optionalWith(Schema.Int.pipe(Schema.between(0, 100_000)), { exact: true }),
  pageSize: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 1_000)), { exact: true })
})

/** A campaign as GET /campaigns shows it: `updatedAt` once it is stored (see search/SiteCampaigns.ts). */
export const CampaignRecord = Schema.Struct({
  ...Campaign.from.fields,
  updatedAt: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ identifier: "CampaignRecord" })

export const CampaignList = Schema.Struct({
  items: Schema.Array(CampaignRecord),
  /** The sites file's `defaultCampaign`: the campaign of a request that names none. */
  defaultCampaign: Schema.Int
}).annotations({ identifier: "CampaignList" })

/** PUT /campaigns/{id}: a campaign, its `id` the path's (or left out); checked whole when written. */
export const CampaignBody = Schema.Struct({
  ...Campaign.from.fields,
  id: Schema.optionalWith(Schema.Int, { exact: true })
}).annotations({ identifier: "CampaignBody" })

export const CampaignPath = Schema.Struct({
  id: Schema.NumberFromString.pipe(
    Schema.filter((n) => (Number.isSafeInteger(n) && n >= 0) || "must be a campaign id (an integer >= 0)")
  )
})
