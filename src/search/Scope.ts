import { Effect, Either } from "effect"
import { columnNames, filterTerm, findColumn } from "../model/Columns.js"
import { decodeCategoryPath, ROOT_PATH } from "../domain/CategoryPath.js"
import { BadRequest } from "../domain/Errors.js"
import type { Condition, Filter } from "../model/Filter.js"

interface ClauseIn {
  readonly column: string
  readonly values: ReadonlyArray<string>
}
interface StaticIn {
  readonly included?: ReadonlyArray<ClauseIn> | undefined
  readonly excluded?: ReadonlyArray<ClauseIn> | undefined
}
export interface DynamicIn {
  readonly column: string
  readonly values: ReadonlyArray<string> | { readonly start?: number | undefined; readonly end?: number | undefined }
}

const fail = (field: string, rule: string) => new BadRequest({ message: `${field}: ${rule}` })

/** Turns one column's wire values into the index's form (decoded paths, lowercase colours, booleans). */
export const columnCondition = (
  field: string,
  column: string,
  values: ReadonlyArray<string>
): Effect.Effect<Condition, BadRequest> =>
  Effect.gen(function* () {
    const def = findColumn(column)
    if (def === undefined) {
      return yield* fail(`${field}.column`, `unknown column "${column}"; known columns: ${columnNames.join(", ")}`)
    }
    switch (def.kind) {
      case "category": {
        const paths: Array<string> = []
        for (const [i, v] of values.entries()) {
          const decoded = decodeOrUndefined(v)
          if (decoded === undefined)
            return yield* fail(`${field}.values.${i}`, "must be a Base64-URL (unpadded) encoded category path")
          paths.push(decoded)
        }
        return { column, anyOf: paths }
      }
      case "color":
        return { column, anyOf: values.map((v) => filterTerm(def, v)) }
      case "boolean": {
        if (values.length !== 1 || (values[0] !== "true" && values[0] !== "false")) {
          return yield* fail(
            `${field}.values`,
            `column "${column}" is true/false: give exactly one of "true" or "false"`
          )
        }
        return { column, equals: values[0] === "true" }
      }
      case "number":
        return yield* fail(
          `${field}.values`,
          `column "${column}" is numeric: filter it with a dynamic filter interval {start, end}`
        )
      case "string":
        return { column, anyOf: values }
    }
  })

const decodeOrUndefined = (encoded: string): string | undefined => Either.getOrUndefined(decodeCategoryPath(encoded))

/**
 * Whether a clause names the category root (spec: written as the sole label `root`): every
 * product is under it, so including it restricts nothing.
 */
const namesRoot = (column: string, values: ReadonlyArray<string>): boolean =>
  findColumn(column)?.kind === "category" && values.some((v) => decodeOrUndefined(v) === ROOT_PATH)

export const staticConditions = (field: string, filters: StaticIn | undefined) =>
  Effect.gen(function* () {
    const must: Array<Condition> = []
    const mustNot: Array<Condition> = []
    for (const [i, c] of (filters?.included ?? []).entries()) {
      if (namesRoot(c.column, c.values)) continue
      must.push(yield* columnCondition(`${field}.included.${i}`, c.column, c.values))
    }
    for (const [i, c] of (filters?.excluded ?? []).entries()) {
      if (namesRoot(c.column, c.values))
        return yield* fail(
          `${field}.excluded.${i}.values`,
          "the root holds every product: excluding it would exclude them all"
        )
      mustNot.push(yield* columnCondition(`${field}.excluded.${i}`, c.column, c.values))
    }
    return { must, mustNot }
  })

export const dynamicCondition = (field: string, filter: DynamicIn) =>
  Effect.gen(function* () {
    if (Array.isArray(filter.values))
      return yield* columnCondition(field, filter.column, filter.values as ReadonlyArray<string>)
    const def = findColumn(filter.column)
    if (def?.kind !== "number")
      return yield* fail(`${field}.values`, `an interval needs a numeric column; "${filter.column}" is not one`)
    const { start, end } = filter.values as { start?: number; end?: number }
    return { column: filter.column, range: { gte: start, lt: end } } satisfies Condition
  })

/** The search scope: campaign filters, then the request's static filters, then its dynamic ones. */
export const buildFilter = (input: {
  readonly campaign?: StaticIn | undefined
  readonly staticFilters?: StaticIn | undefined
  readonly dynamicFilters?: ReadonlyArray<DynamicIn> | undefined
  /** The fired query rules' filters (see QueryRules.ts). */
  readonly rules?: ReadonlyArray<StaticIn> | undefined
}): Effect.Effect<{ readonly filter: Filter; readonly dynamic: ReadonlyArray<Condition> }, BadRequest> =>
  Effect.gen(function* () {
    const campaign = yield* staticConditions("campaign.staticFilters", input.campaign)
    const request = yield* staticConditions("staticFilters", input.staticFilters)
    const rules = yield* Effect.forEach(input.rules ?? [], (filters) =>
      staticConditions("consequence.filters", filters)
    )
    const dynamic: Array<Condition> = []
    for (const [i, f] of (input.dynamicFilters ?? []).entries()) {
      if (Array.isArray(f.values) && namesRoot(f.column, f.values as ReadonlyArray<string>)) continue
      dynamic.push(yield* dynamicCondition(`dynamicFilters.${i}`, f))
    }
    return {
      filter: {
        must: [...campaign.must, ...rules.flatMap((r) => r.must), ...request.must, ...dynamic],
        mustNot: [...campaign.mustNot, ...rules.flatMap((r) => r.mustNot), ...request.mustNot]
      },
      dynamic
    }
  })
