import { Schema } from "effect"
import { DynamicFilters, StaticFilters } from "./Filters.js"
import { Rectangle } from "./Interactions.js"
import { HttpUrl, optionalField } from "./Product.js"
import { CampaignId, RequestId, ResultsCount, SearchResponse } from "./Search.js"

// Plain base64 (line breaks allowed, as MIME encoders wrap) or a data URL carrying base64.
const BASE64_IMAGE = /^(data:image\/[\w.+-]+;base64,)?[A-Za-z0-9+/\r\n]+={0,2}\s*$/

export const Base64Image = Schema.String.pipe(
  Schema.filter((s) => BASE64_IMAGE.test(s), {
    message: () => "must be a base64 image or a data URL (data:image/...;base64,...)"
  })
)

/**
 * Both image sources are optional here: a request repeating an earlier requestId may omit
 * them (rule 2), which only `imageSourceOf` can judge.
 */
export const VisualQuery = Schema.Struct({
  image: optionalField(Base64Image),
  url: optionalField(HttpUrl),
  highResolutionImage: optionalField(Base64Image),
  searchArea: optionalField(Rectangle)
})
export type VisualQuery = typeof VisualQuery.Type

export const VisualSearchRequest = Schema.Struct({
  requestId: optionalField(RequestId),
  query: VisualQuery,
  resultsCount: optionalField(ResultsCount),
  campaign: optionalField(CampaignId),
  staticFilters: optionalField(StaticFilters),
  dynamicFilters: optionalField(DynamicFilters),
  objectDetection: optionalField(Schema.Struct({ include: optionalField(Schema.Boolean) }))
}).annotations({ identifier: "VisualSearchRequest" })
export type VisualSearchRequest = typeof VisualSearchRequest.Type

export type ImageSource =
  | { readonly _tag: "Image"; readonly image: string }
  | { readonly _tag: "Url"; readonly url: string }
  | { readonly _tag: "Stored"; readonly requestId: string }

export const missingImageSource = "query must have an image or a url (or repeat the requestId of an earlier request)"

/**
 * Where the image comes from (rules 1 and 2): the image wins over the url; with neither, the
 * image stored for the requestId. Undefined when none applies (answer `missingImageSource`).
 * Whether an image is still stored for the requestId is for the session store to say.
 */
export const imageSourceOf = (request: VisualSearchRequest): ImageSource | undefined => {
  if (request.query.image !== undefined) return { _tag: "Image", image: request.query.image }
  if (request.query.url !== undefined) return { _tag: "Url", url: request.query.url }
  if (request.requestId !== undefined) return { _tag: "Stored", requestId: request.requestId }
  return undefined
}

export const VisualSearchResponse = SearchResponse
export type VisualSearchResponse = SearchResponse
