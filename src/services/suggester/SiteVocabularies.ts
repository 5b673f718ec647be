import { complete, type Suggestion } from "./Complete.js"
import { normalize } from "../../text/NormalForm.js"
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

/** A 53-bit digest (cyrb53) of everything a product's phrases come from. */
const sourceDigest = (source: ProductText): number => {
  const text = [source.title, source.brand ?? "", ...source.categories, "\u0001", ...(source.productTypes ?? [])].join(
    "\u0000"
  )
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

/** One site's world: nothing in it is ever consulted for another site. */
interface Site {
  readonly vocabulary: Vocabulary
  /**
   * Per product, the phrases it added, each as id × 3 + source, so removal needs no re-parsing,
   * and a digest of the text they came from: re-indexing the same text (a price change) is free.
   */
  readonly products: Map<string, { readonly refs: Array<number>; readonly digest: number }>
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
    const digest = sourceDigest(source)
    const previous = products.get(productId)
    if (previous?.digest === digest) return
    // Add the new contribution before removing the old one, so phrases the product keeps
    // never drop to zero and get rebuilt.
    const refs = productPhrases(source).map(([phrase, kind]) => vocabulary.addCatalog(phrase, kind) * KINDS + kind)
    removeRefs(vocabulary, previous?.refs)
    products.set(productId, { refs, digest })
  }

  removeProduct(siteId: number, productId: string): void {
    const { vocabulary, products } = this.site(siteId)
    removeRefs(vocabulary, products.get(productId)?.refs)
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
