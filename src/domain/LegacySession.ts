import { Schema } from "effect"
import { LegacyExcludedFilters } from "./Filters.js"
import { ResultEntity, Uri } from "./ResultEntity.js"
import { optionalField } from "./Product.js"

/** A hypermedia action the legacy client follows: a form (rel, fields) posted with `method` to `href`. */
export const LegacyAction = Schema.Struct({
  rel: Schema.Array(Schema.String),
  value: Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String })),
  method: Schema.String,
  href: Uri
})
export type LegacyAction = typeof LegacyAction.Type

export const LegacyLink = Schema.Struct({ method: Schema.String, href: Uri })
export const LegacyLinks = Schema.Record({ key: Schema.String, value: LegacyLink })
export type LegacyLinks = typeof LegacyLinks.Type

/** Legacy rectangles are plain numbers: the spec does not bound them as it does search areas. */
export const DetectedObject = Schema.Struct({
  value: Schema.Struct({
    classId: optionalField(Schema.Int),
    class: optionalField(Schema.String),
    score: Schema.Int,
    rectangle: Schema.Struct({ left: Schema.Number, top: Schema.Number, width: Schema.Number, height: Schema.Number })
  }),
  links: optionalField(LegacyLinks)
})
export type DetectedObject = typeof DetectedObject.Type

export const LegacySearchSession = Schema.Struct({
  value: optionalField(Schema.Array(ResultEntity)),
  type: optionalField(Schema.String),
  searchArea: optionalField(LegacyAction),
  uploadHighResolutionImage: optionalField(LegacyAction),
  filters: optionalField(
    Schema.Struct({
      type: optionalField(Schema.String),
      value: optionalField(
        Schema.Struct({
          categories: Schema.Array(Schema.Struct({ name: Schema.String, method: Schema.String, href: Uri }))
        })
      )
    })
  ),
  links: optionalField(LegacyLinks),
  detectedObjects: optionalField(Schema.Array(DetectedObject))
}).annotations({ identifier: "LegacySearchSession" })
export type LegacySearchSession = typeof LegacySearchSession.Type

/** Success of GET /search/session/{search-id}/detect-objects. */
export const LegacyDetectedObjects = Schema.Struct({ value: Schema.Array(DetectedObject) })
export type LegacyDetectedObjects = typeof LegacyDetectedObjects.Type

/** Success of PUT /search/session/{search-id}/upload-image. */
export const LegacyMessage = Schema.Struct({ message: Schema.String })
export type LegacyMessage = typeof LegacyMessage.Type

/** Search-exception body; detect-objects and upload-image failures carry no `debug`. */
export const LegacySearchException = Schema.Struct({
  message: Schema.String,
  data: Schema.Unknown,
  debug: optionalField(Schema.String)
}).annotations({ identifier: "LegacySearchException" })
export type LegacySearchException = typeof LegacySearchException.Type

const CampaignIdParam = Schema.String.pipe(
  Schema.pattern(/^\d+$/, { message: () => "must be an integer campaign id" }),
  Schema.compose(Schema.NumberFromString)
)

/** Query of POST /search/session (both fields) and GET /search/session/{id} (campaign-id only). */
export const LegacySessionQuery = Schema.Struct({
  campaignId: optionalField(CampaignIdParam).pipe(Schema.fromKey("campaign-id")),
  excluded: optionalField(LegacyExcludedFilters).pipe(Schema.fromKey("excluded[]"))
})
export type LegacySessionQuery = typeof LegacySessionQuery.Type
