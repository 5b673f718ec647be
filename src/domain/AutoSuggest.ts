import { Schema } from "effect"
import { maxChars, nullable } from "./Product.js"
import { Uri } from "./ResultEntity.js"

/**
 * The empty string is a valid partial query (the shopper focused an empty search box), so it
 * is accepted; what to suggest for it is the auto-suggest service's choice.
 */
export const AutoSuggestRequest = Schema.Struct({
  query: Schema.String.pipe(maxChars(200))
}).annotations({ identifier: "AutoSuggestRequest" })
export type AutoSuggestRequest = typeof AutoSuggestRequest.Type

/** `url` is set when a campaign maps the query to a product or landing page. */
export const Completion = Schema.Struct({
  suggestion: Schema.String,
  url: nullable(Uri)
})
export type Completion = typeof Completion.Type

export const AutoSuggestResponse = Schema.Struct({
  data: Schema.Struct({
    query: Schema.String,
    completions: Schema.Array(Completion)
  })
}).annotations({ identifier: "AutoSuggestResponse" })
export type AutoSuggestResponse = typeof AutoSuggestResponse.Type
