/**
 * Shopper workloads drawn from the catalog's own vocabulary: text searches of several kinds
 * (with repeats and typos) and auto-suggest prefixes.
 */
import { encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import type { ProductSummary } from "./generator.js"
import type { Random } from "./random.js"

export type QueryKind =
  | "1 word"
  | "2-4 words"
  | "brand filter"
  | "price filter"
  | "category filter"
  | "typo"
  | "no match"
  | "nonsense"
  | "repeat"
export const queryKinds: ReadonlyArray<QueryKind> = [
  "1 word",
  "2-4 words",
  "brand filter",
  "price filter",
  "category filter",
  "typo",
  "no match",
  "nonsense",
  "repeat"
]

/** Real words the synthetic catalog never uses: two of them make a query nothing matches. */
const foreignWords = [
  "zeppelin",
  "saxophone",
  "volcano",
  "penguin",
  "asteroid",
  "harpoon",
  "tuxedo",
  "meteorite",
  "gondola",
  "xylophone"
]

/** A made-up word of 5–8 letters. */
const madeUp = (random: Random) =>
  Array.from(
    { length: random.int(5, 8) },
    () => "bcdfghjklmnpqrstvwxz"[random.int(0, 19)] + (random.chance(0.4) ? "aeiou"[random.int(0, 4)] : "")
  )
    .join("")
    .slice(0, 8)

export interface TextQuery {
  readonly kind: QueryKind
  readonly body: {
    query?: string
    resultsCount: number
    offset?: number
    sort?: unknown
    staticFilters?: unknown
    dynamicFilters?: unknown
  }
}

const lower = (s: string) => s.toLowerCase()

/** One edit in a word of at least 5 letters: transposition, deletion, substitution or insertion. */
export const typo = (random: Random, text: string): string => {
  const words = text.split(" ")
  const candidates = words.map((w, i) => [w, i] as const).filter(([w]) => /^[a-z]{5,}$/.test(w))
  if (candidates.length === 0) return text
  const [word, at] = random.pick(candidates)
  const i = random.int(1, word.length - 2)
  const letter = "abcdefghijklmnopqrstuvwxyz"[random.int(0, 25)]
  const edited = random.weighted([
    [() => word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2), 40],
    [() => word.slice(0, i) + word.slice(i + 1), 20],
    [() => word.slice(0, i) + letter + word.slice(i + 1), 25],
    [() => word.slice(0, i) + letter + word.slice(i), 15]
  ] as const)()
  words[at] = edited
  return words.join(" ")
}

const oneWord = (random: Random, p: ProductSummary) =>
  lower(
    random.weighted([
      [() => p.noun.split(" ").at(-1)!, 35],
      [() => p.noun, 15],
      [() => p.brand, 20],
      [() => p.adjective.split(" ")[0], 10],
      [() => (p.material ?? p.colour).split(" ")[0], 8],
      [() => random.pick(p.path[1].split(" ").filter((w) => w.length > 2)) ?? p.path[1], 12]
    ] as const)()
  )

const fewWords = (random: Random, p: ProductSummary) => {
  const phrase = random.weighted([
    [() => `${p.adjective} ${p.noun}`, 25],
    [() => `${p.brand} ${p.noun}`, 20],
    [() => `${p.colour} ${p.noun}`, 15],
    [() => `${p.material ?? p.adjective} ${p.noun}`, 15],
    [() => `${p.brand} ${p.adjective} ${p.noun}`, 10],
    [() => `${p.noun} ${p.spec || p.colour}`, 15]
  ] as const)()
  const words = lower(phrase).split(" ")
  const two = words.length >= 2 ? words : [...words, lower(p.colour)]
  return two.slice(Math.max(0, two.length - 4)).join(" ")
}

const shortQuery = (random: Random, p: ProductSummary) =>
  random.chance(0.6) ? lower(p.noun) : `${lower(p.adjective)} ${lower(p.noun)}`

/**
 * `count` text searches: ~30% repeats of earlier ones, the rest new queries of the other
 * kinds, each built from a random catalog product.
 */
export const textQueries = (
  random: Random,
  products: ReadonlyArray<ProductSummary>,
  count: number,
  page: number
): Array<TextQuery> => {
  const out: Array<TextQuery> = []
  const history: Array<TextQuery> = []
  for (let i = 0; i < count; i++) {
    if (history.length > 20 && random.chance(0.3)) {
      out.push({ kind: "repeat", body: random.pick(history).body })
      continue
    }
    const p = random.pick(products)
    const kind = random.weighted([
      ["1 word", 22],
      ["2-4 words", 30],
      ["brand filter", 11],
      ["price filter", 11],
      ["category filter", 14],
      ["typo", 12],
      ["no match", 5],
      ["nonsense", 5]
    ] as const)
    let body: TextQuery["body"]
    switch (kind) {
      case "1 word":
        body = { query: oneWord(random, p), resultsCount: page }
        break
      case "2-4 words":
        body = { query: fewWords(random, p), resultsCount: page }
        break
      case "brand filter":
        body = {
          query: shortQuery(random, p),
          resultsCount: page,
          staticFilters: { included: [{ column: "brand", values: [p.brand] }] }
        }
        break
      case "price filter":
        body = {
          query: shortQuery(random, p),
          resultsCount: page,
          dynamicFilters: [
            { column: "price", values: { start: Math.floor(p.price * 0.6), end: Math.ceil(p.price * 1.6) + 1 } }
          ]
        }
        break
      case "category filter": {
        const path = random.chance(0.5) ? p.path.join(" > ") : p.path.slice(0, 2).join(" > ")
        body = {
          query: random.chance(0.5) ? lower(p.adjective) : fewWords(random, p),
          resultsCount: page,
          dynamicFilters: [{ column: "category", values: [encodeCategoryPath(path)] }]
        }
        break
      }
      case "typo": {
        const base = random.chance(0.5) ? lower(p.noun) : fewWords(random, p)
        body = { query: typo(random, base), resultsCount: page }
        break
      }
      case "no match":
        body = {
          query: [...foreignWords]
            .sort(() => random.next() - 0.5)
            .slice(0, 2)
            .join(" "),
          resultsCount: page
        }
        break
      case "nonsense":
        body = { query: `${madeUp(random)} ${madeUp(random)}`, resultsCount: page }
        break
    }
    const query = { kind, body }
    out.push(query)
    history.push(query)
  }
  return out
}

/**
 * Category pages deep in a large listing: `count` browses (no words) of three departments at
 * once (~30% of the catalog), sorted by price, at page `pageNumber` of `page` products.
 */
export const deepBrowses = (
  random: Random,
  departments: ReadonlyArray<string>,
  count: number,
  page: number,
  pageNumber: number
): Array<TextQuery["body"]> =>
  Array.from({ length: count }, () => {
    const chosen = [...departments].sort(() => random.next() - 0.5).slice(0, 3)
    return {
      resultsCount: page,
      offset: (pageNumber - 1) * page,
      sort: [{ column: "price", order: random.chance(0.5) ? "asc" : "desc" }],
      staticFilters: { included: [{ column: "category", values: chosen.map((d) => encodeCategoryPath(d)) }] }
    }
  })

/**
 * 2–8-character prefixes of brands, product nouns, category labels, title phrases and past
 * queries; ~10% with a typo (those of 5+ letters).
 */
export const suggestPrefixes = (
  random: Random,
  products: ReadonlyArray<ProductSummary>,
  pastQueries: ReadonlyArray<string>,
  count: number
): Array<string> =>
  Array.from({ length: count }, () => {
    const p = random.pick(products)
    const phrase = lower(
      random.weighted([
        [() => p.brand, 20],
        [() => p.noun, 25],
        [() => random.pick(p.path), 10],
        [() => `${p.adjective} ${p.noun}`, 15],
        [() => p.noun.split(" ").at(-1)!, 10],
        [() => (pastQueries.length > 0 ? random.pick(pastQueries) : p.noun), 20]
      ] as const)()
    )
    const prefix = phrase.slice(0, random.int(2, 8)).trimEnd()
    return prefix.length >= 5 && random.chance(0.12) ? typo(random, prefix) : prefix
  })
