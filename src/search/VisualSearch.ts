import { Effect } from "effect"
import { timed } from "../platform/ServerTiming.js"
import { BadRequest } from "../domain/Errors.js"
import { campaignResultsCount } from "../domain/Site.js"
import { imageSourceOf, missingImageSource, type VisualSearchRequest } from "../domain/Visual.js"
import { CatalogIndex, type SearchQuery } from "../services/catalog-index/CatalogIndex.js"
import { ImageAnalyzer } from "../services/image-analyzer/ImageAnalyzer.js"
import type { DecodedImage } from "../services/image-intake/IntakeErrors.js"
import { ImageIntake } from "../services/image-intake/ImageIntake.js"
import { type RelativeArea, toRgb } from "../services/image-intake/Rgb.js"
import { SessionStore } from "../services/session-store/SessionStore.js"
import { campaignBoosts } from "./Campaigns.js"
import { centreOf, meanDirection, mirrored } from "../visual-space/PhotoViews.js"
import { colorSignature } from "../visual-space/ColorSignature.js"
import { RAW_FEATURES, SiteVisualSpaces } from "../visual-space/SiteVisualSpaces.js"
import { sampledFacets, FACET_SAMPLE } from "./DynamicFilters.js"
import { loadEntities } from "./Products.js"
import { buildFilter } from "./Scope.js"
import { siteCampaign } from "./SiteCampaigns.js"

/** How long an image stays reusable by its requestId (spec: stored only temporarily). */
export const VISUAL_IMAGE_TTL_SECONDS = 15 * 60
/** The query image's dominant colour nudges products whose photos share it (raw features only). */
const COLOR_BOOST = 0.03

const storedKey = (requestId: string, highRes: boolean) => `vs:${requestId}${highRes ? ":hr" : ""}`

const toRef = (image: DecodedImage) => ({
  bytes: image.bytes,
  format: image.format,
  width: image.width,
  height: image.height,
  sha256: image.sha256
})

/** Rule 1 and 2: image wins over url; with neither, the image kept for the requestId. */
const resolveImages = (siteId: number, input: VisualSearchRequest) =>
  Effect.gen(function* () {
    const intake = yield* ImageIntake
    const sessions = yield* SessionStore
    const source = imageSourceOf(input)
    if (source === undefined) return yield* new BadRequest({ message: missingImageSource })
    let image: DecodedImage
    if (source._tag === "Image") image = yield* intake.fromData(source.image, "query.image")
    else if (source._tag === "Url") image = yield* intake.fromUrl(source.url, "query.url")
    else {
      const stored = yield* sessions.getImage(siteId, storedKey(source.requestId, false))
      if (stored === null)
        return yield* new BadRequest({
          message:
            `query: no image is stored for requestId "${source.requestId}" ` +
            `(it expires after ${VISUAL_IMAGE_TTL_SECONDS / 60} minutes); send the image again`
        })
      image = { ...stored, format: stored.format as DecodedImage["format"] }
    }
    // The high-resolution image only serves crops of uploaded images (ignored with a url).
    let highRes: DecodedImage | null = null
    if (input.query.highResolutionImage !== undefined && source._tag !== "Url") {
      highRes = yield* intake.fromData(input.query.highResolutionImage, "query.highResolutionImage")
    } else if (source._tag === "Stored") {
      const stored = yield* sessions.getImage(siteId, storedKey(source.requestId, true))
      if (stored !== null) highRes = { ...stored, format: stored.format as DecodedImage["format"] }
    }
    if (input.requestId !== undefined && source._tag !== "Stored") {
      yield* sessions.putImage(siteId, storedKey(input.requestId, false), toRef(image), VISUAL_IMAGE_TTL_SECONDS)
    }
    if (input.requestId !== undefined && highRes !== null && input.query.highResolutionImage !== undefined) {
      yield* sessions.putImage(siteId, storedKey(input.requestId, true), toRef(highRes), VISUAL_IMAGE_TTL_SECONDS)
    }
    return { image, highRes }
  })

interface ScopeInput {
  readonly campaign?: number | undefined
  readonly resultsCount?: number | undefined
  readonly staticFilters?: Parameters<typeof buildFilter>[0]["staticFilters"]
  readonly dynamicFilters?: Parameters<typeof buildFilter>[0]["dynamicFilters"]
}

/** Campaign, result count and filter scope of an image search; unknown campaign or column → 400. */
export const visualScope = (siteId: number, input: ScopeInput) =>
  Effect.gen(function* () {
    const campaign = yield* siteCampaign(siteId, input.campaign)
    const limit = campaignResultsCount(campaign, input.resultsCount)
    const { filter, dynamic } = yield* buildFilter({
      campaign: campaign.staticFilters,
      staticFilters: input.staticFilters,
      dynamicFilters: input.dynamicFilters
    })
    return { campaign, limit, filter, dynamic }
  })
export type VisualScope = Effect.Effect.Success<ReturnType<typeof visualScope>>

/**
 * The ranking of an image search, shared by POST /visual-search and the legacy search
 * sessions: the (cropped) query image is embedded with the image model and matched against
 * product image vectors: in a site with a learned visual space, averaged with its mirror image
 * and projected with its colours into that space (where the products' vectors are); otherwise
 * as it is, with its dominant colour blended in as a boost. Campaign boosts apply.
 * A crop of `highRes` (when given) keeps detail that the small preview lost.
 */
export const rankByImage = (
  siteId: number,
  scope: VisualScope,
  images: { readonly image: DecodedImage; readonly highRes: DecodedImage | null },
  area?: RelativeArea,
  sample = 0
) =>
  Effect.gen(function* () {
    const analyzer = yield* ImageAnalyzer
    const index = yield* CatalogIndex
    const cropSource = area !== undefined && images.highRes !== null ? images.highRes : images.image
    const rgb = yield* toRgb(cropSource, { size: 512, fit: "contain", ...(area ? { crop: area } : {}) }).pipe(
      timed("crop")
    )
    const space = (yield* Effect.flatMap(SiteVisualSpaces, (spaces) => spaces.projections([siteId])))(siteId)
    // In the site's learned space, the query is the mean direction of the photo and its mirror
    // image (a product seen the other way round is the same product), both on model threads at
    // once, with the colour signature of the searched area's centre. Raw features: the photo alone.
    const learned = space !== RAW_FEATURES
    const [analysis, mirror, signature] = yield* Effect.all(
      [
        analyzer.analyze(rgb, { detect: false, priority: "query" }),
        learned ? analyzer.embed(mirrored(rgb), { priority: "query" }) : Effect.succeed(undefined),
        learned ? colorSignature(cropSource, centreOf(area)) : Effect.succeed(undefined)
      ],
      { concurrency: 3 }
    ).pipe(timed("embed"))

    // With raw features the image model says little about colour: the query's dominant colour
    // nudges products whose photos share it. In a learned space the colours are in the vectors
    // already (a nudge on top lowered top-5 on the grocery evaluation).
    const topColor = learned ? undefined : analysis.colors[0]?.name
    const query: Omit<SearchQuery, "limit"> = {
      siteId,
      imageVector: space(
        mirror === undefined ? analysis.embedding : meanDirection(analysis.embedding, mirror),
        signature
      ),
      filter: scope.filter,
      weights: { lexical: 0, text: 0, image: 1 },
      minSimilarity: 0,
      boosts: [
        ...(yield* campaignBoosts(scope.campaign)),
        ...(topColor ? [{ condition: { column: "image_color", anyOf: [topColor] }, weight: COLOR_BOOST }] : [])
      ]
    }
    // `sample`: the ranking also serves as the facet sample (as in text search).
    const result = yield* index.search({ ...query, limit: Math.max(scope.limit, sample) }).pipe(timed("index"))
    const products = yield* loadEntities(
      siteId,
      result.hits.slice(0, scope.limit).map((h) => h.productId)
    ).pipe(timed("entities"))
    return { query, result, products, analysis, rgb }
  })

/** Objects in the whole image (COCO classes), rectangles relative to the image. */
export const detectObjects = (image: DecodedImage) =>
  Effect.flatMap(ImageAnalyzer, (analyzer) =>
    Effect.flatMap(toRgb(image, { size: 640, fit: "fill" }), (rgb) => analyzer.detect(rgb))
  )

/**
 * POST /visual-search: the image ranking above; filters, campaigns and facets work as in text
 * search. The stream shows the crop that was searched.
 */
export const visualSearch = (siteId: number, input: VisualSearchRequest) =>
  Effect.gen(function* () {
    const scope = yield* visualScope(siteId, input)
    const images = yield* resolveImages(siteId, input).pipe(timed("decode"))
    const area = input.query.searchArea
    const { analysis, products, query, result, rgb } = yield* rankByImage(siteId, scope, images, area, FACET_SAMPLE)
    const facets = yield* sampledFacets(query, scope.dynamic, Effect.succeed(result.hits))

    const suggestedSearchAreas = input.objectDetection?.include
      ? (yield* detectObjects(images.image)).map((o) => ({ rectangle: o.rectangle }))
      : undefined
    const interactions = { dynamicFilters: facets, ...(suggestedSearchAreas ? { suggestedSearchAreas } : {}) }

    const thumbnail = yield* Effect.promise(() =>
      import("sharp").then(({ default: sharp }) =>
        sharp(Buffer.from(rgb.data), { raw: { width: rgb.width, height: rgb.height, channels: 3 } })
          .resize(128, 128, { fit: "inside" })
          .jpeg({ quality: 70 })
          .toBuffer()
      )
    )
    const colorText =
      analysis.colors.length > 0
        ? ` Main colour: ${analysis.colors
            .map((c) => c.name)
            .slice(0, 2)
            .join(", ")}.`
        : ""
    const stream = {
      items: [
        {
          role: "assistant" as const,
          parts: [
            { inlineData: { mimeType: "image/jpeg", data: thumbnail.toString("base64") } },
            {
              text: {
                content:
                  `Searched ${area ? "the selected area of " : ""}your image: ` +
                  `${result.total} similar products.${colorText}`,
                annotations: []
              }
            }
          ]
        }
      ]
    }
    return {
      ...(input.requestId !== undefined ? { requestId: input.requestId } : {}),
      data: { products, interactions },
      interactions,
      stream
    }
  })
