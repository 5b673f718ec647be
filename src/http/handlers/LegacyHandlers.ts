import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { colorNameOfHex } from "../../model/ColorNames.js"
import { BadRequest } from "../../domain/Errors.js"
import type { FilterClause } from "../../domain/Filters.js"
import { requireProduct } from "../../services/catalog-store/CatalogStore.js"
import { crossSelling, similarProducts } from "../../search/SimilarAndComplementary.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors } from "../ErrorMapping.js"

interface LegacyQuery {
  readonly count?: number | undefined
  readonly campaigns?: ReadonlyArray<number> | undefined
  readonly imageCode?: string | undefined
  readonly color?: string | undefined
  readonly excluded?: ReadonlyArray<FilterClause> | undefined
}

/** image-code names one of the source product's images; an unknown one is the caller's mistake. */
const checkImageCode = (siteId: number, productId: string, imageCode: string | undefined) =>
  imageCode === undefined
    ? Effect.void
    : Effect.flatMap(requireProduct(siteId, productId), (p) =>
        p.images.some((i) => i.id === imageCode)
          ? Effect.void
          : Effect.fail(
              new BadRequest({ message: `image-code: "${imageCode}" is not an image of product "${productId}"` })
            )
      )

/** The deprecated GET endpoints run the POST implementations; the colour becomes a colour filter preference. */
const common = (siteId: number, productId: string, q: LegacyQuery) =>
  Effect.gen(function* () {
    yield* checkImageCode(siteId, productId, q.imageCode)
    const color = q.color ? colorNameOfHex(q.color) : null
    return {
      productId,
      resultsCount: q.count,
      campaigns: q.campaigns,
      staticFilters: q.excluded && q.excluded.length > 0 ? { excluded: q.excluded } : undefined,
      dynamicFilters: color ? [{ column: "color", values: [color] }] : undefined
    }
  })

const toLegacy = <P extends { readonly productId?: string | undefined }>(r: {
  data: { products: ReadonlyArray<P> }
}) => ({
  bestFits: r.data.products.flatMap((p) => (p.productId === undefined ? [] : [p.productId])),
  extended: r.data.products
})

export const LegacyHandlers = HttpApiBuilder.group(CommerceApi, "legacy", (handlers) =>
  handlers
    .handle("legacySimilar", ({ path, urlParams }) =>
      Effect.gen(function* () {
        const { siteId } = yield* CurrentPrincipal
        const input = yield* common(siteId, path.productId, urlParams)
        const category = urlParams.category
        const result = yield* similarProducts(siteId, {
          ...input,
          ...(category && category.length > 0 ? { substitutions: { category } } : {})
        })
        return toLegacy(result)
      }).pipe(restErrors)
    )
    .handle("legacyCrossSelling", ({ path, urlParams }) =>
      Effect.gen(function* () {
        const { siteId } = yield* CurrentPrincipal
        return toLegacy(yield* crossSelling(siteId, yield* common(siteId, path.productId, urlParams)))
      }).pipe(restErrors)
    )
)
