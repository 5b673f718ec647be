import { Effect, Schema } from "effect"
import { readFileSync } from "node:fs"
import { MERCHANDISING_LIMITS, Synonym } from "../../src/domain/Merchandising.js"
import { forgetSiteMerchandising } from "../../src/search/SiteMerchandising.js"
import { MerchandisingStore } from "../../src/services/merchandising/MerchandisingStore.js"

/**
 * Sets the site's synonyms to the JSON array of `file` (none when undefined), as a replacing
 * POST /synonyms/batch would; returns how many.
 */
export const withSynonyms = (siteId: number, file: string | undefined) =>
  Effect.gen(function* () {
    const synonyms =
      file === undefined
        ? []
        : Schema.decodeUnknownSync(Schema.Array(Synonym))(JSON.parse(readFileSync(file, "utf8")) as unknown)
    const store = yield* MerchandisingStore
    yield* store
      .batch(
        siteId,
        "synonym",
        synonyms.map((value, i) => ({ id: `eval-${i}`, value, updatedAt: Date.now() })),
        true,
        MERCHANDISING_LIMITS.synonyms
      )
      .pipe(Effect.orDie)
    yield* forgetSiteMerchandising(siteId)
    return synonyms.length
  })
