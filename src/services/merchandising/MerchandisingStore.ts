import { Context, type Effect, type Option } from "effect"
import type { StoreError } from "../catalog-store/CatalogStore.js"
import type { Rule, Synonym } from "../../domain/Merchandising.js"
import type { Campaign } from "../../domain/Site.js"

/** What a site's merchandising holds: each kind is a set of entries by id (a campaign's: its number). */
export interface EntryKinds {
  readonly synonym: Synonym
  readonly rule: Rule
  readonly campaign: Campaign
}
export type EntryKind = keyof EntryKinds

export interface StoredEntry<K extends EntryKind> {
  readonly id: string
  readonly value: EntryKinds[K]
  /** Epoch ms of the last write. */
  readonly updatedAt: number
}

/** A write that would take a site past its bound for the kind is refused whole: "full". */
export type PutOutcome = "created" | "replaced" | "full"
export type BatchOutcome = "written" | "full"

/**
 * Synonyms, query rules and campaigns per site, durable once a write returns. Every write bumps the
 * site's `version`, which each process's cache of the compiled set (see SiteMerchandising)
 * compares against, so a change made through one api process is in effect in all of them.
 */
export interface MerchandisingStoreService {
  readonly put: <K extends EntryKind>(
    siteId: number,
    kind: K,
    entry: StoredEntry<K>,
    limit: number
  ) => Effect.Effect<PutOutcome, StoreError>
  readonly get: <K extends EntryKind>(
    siteId: number,
    kind: K,
    id: string
  ) => Effect.Effect<Option.Option<StoredEntry<K>>, StoreError>
  /** false: there was no such entry. */
  readonly remove: (siteId: number, kind: EntryKind, id: string) => Effect.Effect<boolean, StoreError>
  /** Every entry of the kind, by id. */
  readonly all: <K extends EntryKind>(
    siteId: number,
    kind: K
  ) => Effect.Effect<ReadonlyArray<StoredEntry<K>>, StoreError>
  /** Writes the entries at once (a later entry with an id wins), first clearing the kind when `replace`. */
  readonly batch: <K extends EntryKind>(
    siteId: number,
    kind: K,
    entries: ReadonlyArray<StoredEntry<K>>,
    replace: boolean,
    limit: number
  ) => Effect.Effect<BatchOutcome, StoreError>
  /**
   * Writes the entries only if the site has none of the kind, at once: a set first taken from
   * elsewhere (the sites file's campaigns) before the store holds it. true: written.
   */
  readonly seed: <K extends EntryKind>(
    siteId: number,
    kind: K,
    entries: ReadonlyArray<StoredEntry<K>>
  ) => Effect.Effect<boolean, StoreError>
  /** Grows with every change of the site's merchandising (0 before any). */
  readonly version: (siteId: number) => Effect.Effect<number, StoreError>
}

export class MerchandisingStore extends Context.Tag("MerchandisingStore")<
  MerchandisingStore,
  MerchandisingStoreService
>() {}
