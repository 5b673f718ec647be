import { Effect } from "effect"
import type { SearchHit, SearchResult } from "../services/catalog-index/CatalogIndex.js"
import type { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { queryWords, typedWords } from "../text/TextAnalysis.js"
import { queryHead, titleHead } from "../text/TitleHead.js"

/**
 * The first places of a relevance listing are re-ranked by what its titles name: a product whose
 * title's head word (text/TitleHead.ts) is the query's head word gains HEAD_BONUS, so "gold dress"
 * lists dresses before gold dress watches. Only the first HEAD_WINDOW places (the same window for
 * every page, so pages neither repeat nor skip), whose titles are read from the catalog.
 */
export const HEAD_WINDOW = 30
const HEAD_BONUS = 0.3
/**
 * The share of the closest naming title's text cosine under which a title that names another
 * thing only mentions the query's word.
 */
const PASSING_MENTION = 0.6
/** How many titles of the window must name a one-word query's thing for it to be a kind of product. */
const KIND_NAMED_BY = 3

/**
 * The title heads of the window's products: from the hits where the index holds titles, else
 * from the catalog (a catalog that cannot answer leaves the index's order: the re-ranking only
 * refines it).
 */
const titleHeads = (store: CatalogStore["Type"], siteId: number, window: ReadonlyArray<SearchHit>) =>
  window.every((hit) => hit.title !== undefined)
    ? Effect.succeed(new Map(window.map((hit) => [hit.productId, titleHead(hit.title!)] as const)))
    : store
        .getMany(
          siteId,
          window.map((hit) => hit.productId)
        )
        .pipe(
          Effect.map((products) => new Map(products.map((p) => [p.productId, titleHead(p.data.title ?? "")] as const))),
          Effect.orElseSucceed(() => new Map<string, string | null>())
        )

export const byTitleHead = (
  store: CatalogStore["Type"],
  siteId: number,
  text: string,
  ranked: SearchResult,
  offset: number,
  limit: number
) =>
  Effect.gen(function* () {
    const head = queryHead(text)
    const window = ranked.hits.slice(0, HEAD_WINDOW)
    if (head === null) return { ...ranked, hits: ranked.hits.slice(offset, offset + limit), listing: ranked.hits }
    const heads = yield* titleHeads(store, siteId, window)
    const names = (hit: SearchHit) => heads.get(hit.productId) === head
    // When some titles name what a one-word query names, one that names another thing and whose
    // meaning is far below theirs holds the word only in passing: a "Vanilla Bean" candle for
    // "beans", a baby monitor called "Dream Sock" for "socks". It leaves the listing.
    // One word says least about what a product is: only then is a passing mention told apart,
    // and only where several titles name the word as their thing (a brand or an adjective that
    // ends a title or two by chance names no kind of product).
    const naming = window.filter(names)
    const closest = Math.max(0, ...naming.map((hit) => hit.text))
    const kept =
      typedWords(queryWords(text)) === 1 && naming.length >= KIND_NAMED_BY
        ? window.filter((hit) => names(hit) || hit.text >= PASSING_MENTION * closest)
        : window
    const scored = kept.map((hit, i) => ({ hit, i, score: hit.score + (names(hit) ? HEAD_BONUS : 0) }))
    scored.sort((a, b) => b.score - a.score || a.i - b.i)
    const hits = [...scored.map((s) => s.hit), ...ranked.hits.slice(HEAD_WINDOW)]
    return {
      ...ranked,
      hits: hits.slice(offset, offset + limit),
      /** The whole re-ranked listing the page was cut from. */
      listing: hits,
      total: ranked.total - (window.length - kept.length)
    }
  })
