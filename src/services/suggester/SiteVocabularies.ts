import { complete, type Suggestion } from "./Complete.js"
import { normalize } from "./Normalize.js"
import { productPhrases, type CatalogKind, type ProductText } from "./Phrases.js"
import { Vocabulary } from "./Vocabulary.js"

/** Longer searches are pasted text or sentences, not something worth completing to. */
const MAX_QUERY_CHARS = 100
const KINDS = 3

/** The normal form of a search worth suggesting later, or null (found nothing, empty, too long). */
export const recordableQuery = (query: string, resultCount: number): string | null => {
  const normalized = normalize(query)
  return resultCount <= 0 || normalized.length === 0 || normalized.length > MAX_QUERY_CHARS ? null : normalized
}

/** One site's world: nothing in it is ever consulted for another site. */
interface Site {
  readonly vocabulary: Vocabulary
  /** Per product, the phrases it added, each as id × 3 + source, so removal needs no re-parsing. */
  readonly products: Map<string, Array<number>>
}

/**
 * Every site's suggestion vocabulary, fed by catalog changes and searches. Each Suggester
 * layer keeps one per process; they differ only in where the feeding comes from.
 */
export class SiteVocabularies {
  private readonly sites = new Map<number, Site>()

  private site(siteId: number): Site {
    let found = this.sites.get(siteId)
    if (found === undefined) {
      found = { vocabulary: new Vocabulary(), products: new Map() }
      this.sites.set(siteId, found)
    }
    return found
  }

  /** Idempotent: replaces everything the product contributed before. */
  indexProduct(siteId: number, productId: string, source: ProductText): void {
    const { vocabulary, products } = this.site(siteId)
    // Add the new contribution before removing the old one, so phrases the product keeps
    // never drop to zero and get rebuilt.
    const refs = productPhrases(source).map(([phrase, kind]) => vocabulary.addCatalog(phrase, kind) * KINDS + kind)
    removeRefs(vocabulary, products.get(productId))
    products.set(productId, refs)
  }

  removeProduct(siteId: number, productId: string): void {
    const { vocabulary, products } = this.site(siteId)
    removeRefs(vocabulary, products.get(productId))
    products.delete(productId)
  }

  /** `query` in normal form (see `recordableQuery`); `at` is when it was last searched (epoch ms). */
  addSearches(siteId: number, query: string, count: number, at: number): void {
    this.site(siteId).vocabulary.addSearches(query, count, at)
  }

  suggest(siteId: number, prefix: string, limit: number, now: number): Array<Suggestion> {
    const found = this.sites.get(siteId)
    return found === undefined ? [] : complete(found.vocabulary, prefix, limit, now)
  }
}

const removeRefs = (vocabulary: Vocabulary, refs: ReadonlyArray<number> | undefined) => {
  for (const ref of refs ?? []) vocabulary.removeCatalog(Math.floor(ref / KINDS), (ref % KINDS) as CatalogKind)
}
