/** One condition of a filter: a set of accepted values, or a numeric interval [gte, lt). */
export type Condition =
  | { readonly column: string; readonly anyOf: ReadonlyArray<string> }
  | { readonly column: string; readonly range: { readonly gte?: number | undefined; readonly lt?: number | undefined } }
  | { readonly column: string; readonly equals: boolean }

/** Conjunction of `must` conditions, none of the `mustNot` conditions. */
export interface Filter {
  readonly must: ReadonlyArray<Condition>
  readonly mustNot: ReadonlyArray<Condition>
}

export const emptyFilter: Filter = { must: [], mustNot: [] }
