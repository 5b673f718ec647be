import { Schema } from "effect"
import { StaticFilters } from "./Filters.js"

/** Lowercase, trimmed, single-spaced: the form pins and redirects are matched on. */
export const normalizeQuery = (q: string): string => q.trim().replace(/\s+/g, " ").toLowerCase()

/** Decoding normalizes, so a file edited by hand still matches `normalizeQuery(request.q)`. */
const NormalizedQuery = Schema.transform(Schema.String, Schema.NonEmptyString, {
  strict: true,
  decode: normalizeQuery,
  encode: (q) => q
})

const Base64 = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9+/]+={0,2}$/))

export const Credential = Schema.Struct({
  // RFC 7617: a Basic user-id cannot contain ":"; usernames are unique across all sites.
  username: Schema.NonEmptyString.pipe(Schema.pattern(/^[^:\s]+$/)),
  passwordHash: Schema.String.pipe(
    Schema.pattern(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/, {
      message: () => "passwordHash must be scrypt$N$r$p$saltB64$hashB64"
    })
  ),
  createdAt: Schema.String
})
export type Credential = typeof Credential.Type

export const Boost = Schema.Struct({
  column: Schema.NonEmptyString,
  values: Schema.Array(Schema.String),
  /** Added to the score of matching products (a strong text match scores about 1–2); negative demotes them. */
  weight: Schema.Number.pipe(Schema.finite())
})

export const Pin = Schema.Struct({
  query: NormalizedQuery,
  /** Shown first, in this order, for exactly this query. */
  productIds: Schema.NonEmptyArray(Schema.String)
})

export const Redirect = Schema.Struct({
  query: NormalizedQuery,
  url: Schema.String.pipe(Schema.filter((u) => URL.canParse(u) || `not an absolute URL: ${u}`))
})

/** Complementary categories, as text-form paths ("Home > Kitchen"), for cross-selling. */
export const CrossSell = Schema.Struct({
  from: Schema.NonEmptyString,
  to: Schema.NonEmptyArray(Schema.NonEmptyString)
})

/**
 * A campaign is the shop's tuning of results. `resultsCount` is both the ceiling
 * (spec: a request gets at most "the campaign's defined count") and the default when a
 * request gives none: one number keeps the rule easy to explain to merchants.
 * Optional fields are exact (absent, never `undefined`), which keeps validation messages short.
 */
export const Campaign = Schema.Struct({
  id: Schema.Int.pipe(Schema.nonNegative()),
  name: Schema.optionalWith(Schema.String, { exact: true }),
  resultsCount: Schema.Int.pipe(Schema.between(1, 1000)),
  /** Applied before the request's own static filters. */
  staticFilters: Schema.optionalWith(StaticFilters, { exact: true }),
  boosts: Schema.optionalWith(Schema.Array(Boost), { exact: true }),
  pins: Schema.optionalWith(Schema.Array(Pin), { exact: true }),
  redirects: Schema.optionalWith(Schema.Array(Redirect), { exact: true }),
  crossSell: Schema.optionalWith(Schema.Array(CrossSell), { exact: true }),
  /** Text search lists one product per item group unless a request says otherwise. */
  collapseVariants: Schema.optionalWith(Schema.Boolean, { exact: true }),
  /**
   * How much shoppers' popularity lifts a product in relevance listings (text search and
   * browse): added to its score, the most popular product getting all of it (a strong text
   * match scores about 1 to 2). 0 turns it off; default DEFAULT_POPULARITY_BOOST.
   */
  popularityBoost: Schema.optionalWith(Schema.Number.pipe(Schema.between(0, 2)), { exact: true }),
  /**
   * Typo variants of a query word the site has no products for ("sneekers" → "sneakers"): true
   * (default), false (none), or "min" (only the variants with the fewest edits found). A word
   * with products of its own never matches another word one edit away, and a word holding a
   * digit never matches fuzzily, whatever this says.
   */
  typoTolerance: Schema.optionalWith(Schema.Union(Schema.Boolean, Schema.Literal("min")), { exact: true }),
  /** Letters a query word needs before one typo is tolerated (default 4), and two (default 9). */
  minWordSizeFor1Typo: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 30)), { exact: true }),
  minWordSizeFor2Typos: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 30)), { exact: true })
}).pipe(
  Schema.filter(
    (campaign) =>
      (campaign.minWordSizeFor2Typos ?? 9) >= (campaign.minWordSizeFor1Typo ?? 4) ||
      "minWordSizeFor2Typos: must be at least minWordSizeFor1Typo"
  )
)

/**
 * The popularity boost of a campaign that sets none (see Campaign.popularityBoost). Chosen on
 * the validation orders of `npm run eval:baskets` (the bought product's rank for short queries):
 * larger boosts kept helping there, where every judged query comes from a buyer; 0.4 takes
 * most of the gain while staying well under what the words and meaning of a match add.
 */
export const DEFAULT_POPULARITY_BOOST = 0.4
export type Campaign = typeof Campaign.Type

/**
 * How many products a recommendation (similar products, cross-selling) lists when the request
 * does not say: one row of a product page, not the campaign's whole allowance.
 */
export const RECOMMENDATION_PAGE = 12

export const recommendationCount = (campaign: Campaign, requested?: number): number =>
  Math.min(requested ?? RECOMMENDATION_PAGE, campaign.resultsCount)

/** How many results a request gets under a campaign. */
export const campaignResultsCount = (campaign: Campaign, requested?: number): number =>
  Math.min(requested ?? campaign.resultsCount, campaign.resultsCount)

const duplicates = <A>(items: ReadonlyArray<A>): Array<A> => items.filter((item, i) => items.indexOf(item) !== i)

/**
 * A site's own REST request budgets (burst size per window), over REST_RATE_LIMIT_SITE,
 * REST_RATE_LIMIT_READ and REST_RATE_WINDOW_MS: "site" per Basic credential, "read" per
 * read-only token and client address (the token is public, so the address tells shoppers apart).
 */
export const RateLimits = Schema.Struct({
  site: Schema.optional(Schema.Int.pipe(Schema.positive())),
  read: Schema.optional(Schema.Int.pipe(Schema.positive())),
  windowMs: Schema.optional(Schema.Int.pipe(Schema.positive()))
})
export type RateLimits = typeof RateLimits.Type

export const Site = Schema.Struct({
  id: Schema.Int.pipe(Schema.positive()),
  name: Schema.String,
  credentials: Schema.Array(Credential),
  /** Signs the site's read-only JWTs (HS256); replacing it revokes every issued token. */
  tokenSecret: Base64.pipe(
    Schema.filter((s) => Buffer.from(s, "base64").length >= 32 || "tokenSecret must decode to at least 32 bytes")
  ),
  /** Counts rotations, so operators can tell which secret generation is live. */
  tokenSecretVersion: Schema.optional(Schema.Int),
  defaultCampaign: Schema.Int,
  campaigns: Schema.Array(Campaign),
  rateLimits: Schema.optional(RateLimits)
}).pipe(
  Schema.filter((site) => {
    const ids = site.campaigns.map((c) => c.id)
    const dup = duplicates(ids)
    if (dup.length > 0) return `site ${site.id}: duplicate campaign id ${dup[0]}`
    return (
      ids.includes(site.defaultCampaign) ||
      `site ${site.id}: defaultCampaign ${site.defaultCampaign} is not one of its campaigns`
    )
  })
)
export type Site = typeof Site.Type

export const SitesFile = Schema.Struct({ sites: Schema.Array(Site) }).pipe(
  Schema.filter(({ sites }) => {
    const ids = duplicates(sites.map((s) => s.id))
    if (ids.length > 0) return `duplicate site id ${ids[0]}`
    // The site is derived from the credentials alone, so a username must name one site.
    const users = duplicates(sites.flatMap((s) => s.credentials.map((c) => c.username)))
    return users.length === 0 || `username ${users[0]} is used more than once`
  })
)
export type SitesFile = typeof SitesFile.Type
