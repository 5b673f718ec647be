import { Schema } from "effect"
import { EncodedCategoryPath } from "./CategoryPath.js"
import { Interval } from "./Filters.js"
import { oneOf, optionalField, shapesMessage } from "./Product.js"
import { Uri } from "./ResultEntity.js"

const unitInterval = Schema.Number.pipe(
  Schema.filter((n) => n >= 0 && n <= 1, { message: () => "must be a number in [0, 1]" })
)

/** An area of an image, relative to its size: (0,0) is the top-left and (1,1) the bottom-right corner. */
export const Rectangle = Schema.Struct({
  left: unitInterval,
  top: unitInterval,
  width: unitInterval,
  height: unitInterval
})
  .pipe(
    Schema.filter((r) => {
      // A small tolerance keeps areas computed in floating point (0.7 + 0.3) inside the image.
      if (r.left + r.width > 1 + 1e-9) return "left + width must be at most 1 (the rectangle must lie inside the image)"
      if (r.top + r.height > 1 + 1e-9) return "top + height must be at most 1 (the rectangle must lie inside the image)"
      return true
    })
  )
  .annotations({ identifier: "Rectangle" })
export type Rectangle = typeof Rectangle.Type

/**
 * One offered value of a filter. For category columns `value` is a list of category paths
 * (text here, Base64-URL on the wire); interval columns carry an interval; others a string.
 */
export const FilterValue = Schema.Struct({
  value: Schema.Union(Schema.Array(EncodedCategoryPath), Interval, Schema.String).annotations({
    message: shapesMessage("must be an array of encoded category paths, an interval object or a string")
  }),
  label: Schema.String,
  active: Schema.Boolean,
  selected: Schema.Boolean,
  /** Products (or variant groups) of the result set with this value: exact in text search, see docs/api.md. */
  count: Schema.Number
})
export type FilterValue = typeof FilterValue.Type

export const InteractiveFilter = Schema.Struct({
  type: oneOf("categorical", "interval"),
  column: Schema.String,
  label: Schema.String,
  isPrimary: Schema.Boolean,
  values: Schema.Array(FilterValue)
})
export type InteractiveFilter = typeof InteractiveFilter.Type

export const SuggestedSearchArea = Schema.Struct({ rectangle: Rectangle })
export type SuggestedSearchArea = typeof SuggestedSearchArea.Type

export const Redirect = Schema.Struct({ url: Uri })
export type Redirect = typeof Redirect.Type

/** Response-side interaction data: every filter the user may refine with, search areas, a redirect. */
export const Interactions = Schema.Struct({
  dynamicFilters: Schema.Array(InteractiveFilter),
  suggestedSearchAreas: optionalField(Schema.Array(SuggestedSearchArea)),
  redirect: optionalField(Redirect)
}).annotations({ identifier: "Interactions" })
export type Interactions = typeof Interactions.Type
