import { Effect, Option, Schema } from "effect"
import { allColumns, ColumnKind, findColumn } from "../../model/Columns.js"
import { parseCategoryPath } from "../../domain/CategoryPath.js"
import { EncodedCategoryPath } from "../../domain/CategoryPath.js"
import { NotFound } from "../../domain/Errors.js"
import { ProductRecord } from "../../domain/Product.js"
import { CatalogIndex } from "../../services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../model/Filter.js"
import { CatalogStore } from "../../services/catalog-store/CatalogStore.js"
import { StoredImage, type StoredProduct } from "../../model/StoredProduct.js"
import { defineTool } from "../Tool.js"
import { asToolFailure } from "../ToolFailure.js"

/** Largest batch get_items accepts. */
export const MAX_GET_ITEMS = 100

const Item = Schema.Struct({
  productId: Schema.String,
  data: ProductRecord,
  images: Schema.Array(StoredImage),
  updatedAt: Schema.String
})
const toItem = (p: StoredProduct) => ({
  productId: p.productId,
  data: p.data,
  images: p.images,
  updatedAt: new Date(p.updatedAt).toISOString()
})

const ColumnSummary = Schema.Struct({
  column: Schema.String,
  type: ColumnKind,
  label: Schema.String,
  /** Products that have a value. */
  products: Schema.Int,
  /** Distinct values (categorical columns). */
  distinctValues: Schema.optional(Schema.Int)
})

const ColumnName = Schema.String.pipe(
  Schema.filter(
    (c) => findColumn(c) !== undefined || `unknown column; known: ${allColumns.map((x) => x.name).join(", ")}`
  )
)

const describe = (siteId: number, column: string, limit: number) =>
  Effect.gen(function* () {
    const index = yield* CatalogIndex
    const def = findColumn(column)!
    const scope = { filter: emptyFilter }
    if (def.kind === "number") {
      const stats = yield* index.numericStats(siteId, column, scope)
      return {
        column,
        type: def.kind,
        label: def.label,
        products: stats?.count ?? 0,
        ...(stats ? { range: { min: stats.min, max: stats.max } } : {})
      }
    }
    const counts = yield* index.facet(siteId, column, scope, def.kind === "category" ? 100_000 : 100_000)
    const products =
      counts.length === 0
        ? 0
        : yield* index.count(siteId, { must: [{ column, anyOf: counts.map((c) => c.value) }], mustNot: [] })
    if (def.kind === "boolean") {
      const of = (v: string) => counts.find((c) => c.value === v)?.count ?? 0
      return { column, type: def.kind, label: def.label, products, split: { true: of("true"), false: of("false") } }
    }
    if (def.kind === "category") {
      const tree = [...counts]
        .sort((a, b) => a.value.localeCompare(b.value))
        .slice(0, limit)
        .map((c) => {
          const labels = parseCategoryPath(c.value)
          return { path: c.value, label: labels.at(-1) ?? "root", depth: labels.length, count: c.count }
        })
      return { column, type: def.kind, label: def.label, products, distinctValues: counts.length, tree }
    }
    return {
      column,
      type: def.kind,
      label: def.label,
      products,
      distinctValues: counts.length,
      values: counts.slice(0, limit)
    }
  })

export const catalogTools = [
  defineTool({
    name: "list_relevant_columns",
    title: "List relevant columns",
    description:
      "Product columns worth filtering on for this site's actual catalog, each with its type, " +
      "a human-readable label, how many products have a value and how many distinct values there are. " +
      "Use the names as `column` in text_search filters.",
    scope: "read",
    effect: "reads",
    input: Schema.Struct({}),
    output: Schema.Struct({ totalProducts: Schema.Int, columns: Schema.Array(ColumnSummary) }),
    run: (principal) =>
      asToolFailure(
        Effect.gen(function* () {
          const index = yield* CatalogIndex
          const totalProducts = yield* index.count(principal.siteId, emptyFilter)
          const columns = []
          for (const def of allColumns) {
            // Columns that identify rather than describe products are useless to filter on.
            if (def.identifying) continue
            const d = yield* describe(principal.siteId, def.name, 0)
            const distinct = "distinctValues" in d ? d.distinctValues : undefined
            if (d.products === 0 || (distinct !== undefined && distinct < 2 && def.kind !== "category")) continue
            columns.push({
              column: def.name,
              type: def.kind,
              label: def.label,
              products: d.products,
              ...(distinct !== undefined ? { distinctValues: distinct } : {})
            })
          }
          columns.sort((a, b) => b.products - a.products)
          return { totalProducts, columns }
        })
      )
  }),
  defineTool({
    name: "describe_column",
    title: "Describe a column",
    description:
      "Catalog-wide values of one column: distinct values with counts (strings, colours), " +
      "the category tree with counts (category columns; paths Base64-URL encoded), " +
      "the numeric range (numbers) or the true/false split (booleans).",
    scope: "read",
    effect: "reads",
    input: Schema.Struct({ column: ColumnName, limit: Schema.optional(Schema.Int.pipe(Schema.between(1, 1000))) }),
    output: Schema.Struct({
      column: Schema.String,
      type: ColumnKind,
      label: Schema.String,
      products: Schema.Int,
      distinctValues: Schema.optional(Schema.Int),
      values: Schema.optional(Schema.Array(Schema.Struct({ value: Schema.String, count: Schema.Int }))),
      tree: Schema.optional(
        Schema.Array(
          Schema.Struct({ path: EncodedCategoryPath, label: Schema.String, depth: Schema.Int, count: Schema.Int })
        )
      ),
      range: Schema.optional(Schema.Struct({ min: Schema.Number, max: Schema.Number })),
      split: Schema.optional(Schema.Struct({ true: Schema.Int, false: Schema.Int }))
    }),
    run: (principal, input) => asToolFailure(describe(principal.siteId, input.column, input.limit ?? 100))
  }),
  defineTool({
    name: "get_item",
    title: "Get a product",
    description: "The full stored record of one product, by id.",
    scope: "read",
    effect: "reads",
    input: Schema.Struct({ productId: Schema.String.pipe(Schema.minLength(1)) }),
    output: Item,
    run: (principal, input) =>
      Effect.flatMap(
        asToolFailure(Effect.flatMap(CatalogStore, (s) => s.get(principal.siteId, input.productId))),
        Option.match({
          onNone: () => Effect.fail({ message: `product "${input.productId}" not found` }),
          onSome: (p) => Effect.succeed(toItem(p))
        })
      )
  }),
  defineTool({
    name: "get_items",
    title: "Get products",
    description:
      `The full stored records of a batch of products (at most ${MAX_GET_ITEMS} ids), ` +
      `in the order asked; unknown ids are listed in \`missing\`.`,
    scope: "read",
    effect: "reads",
    input: Schema.Struct({
      productIds: Schema.Array(Schema.String).pipe(Schema.minItems(1), Schema.maxItems(MAX_GET_ITEMS))
    }),
    output: Schema.Struct({ items: Schema.Array(Item), missing: Schema.Array(Schema.String) }),
    run: (principal, input) =>
      asToolFailure(
        Effect.gen(function* () {
          const found = yield* Effect.flatMap(CatalogStore, (s) => s.getMany(principal.siteId, input.productIds))
          const ids = new Set(found.map((p) => p.productId))
          return { items: found.map(toItem), missing: input.productIds.filter((id) => !ids.has(id)) }
        })
      )
  }),
  defineTool({
    name: "get_item_group",
    title: "Get an item group",
    description: "All variants of an item group (products sharing item_group_id), with full records.",
    scope: "read",
    effect: "reads",
    input: Schema.Struct({ itemGroupId: Schema.String.pipe(Schema.minLength(1)) }),
    output: Schema.Struct({ itemGroupId: Schema.String, items: Schema.Array(Item) }),
    run: (principal, input) =>
      asToolFailure(
        Effect.gen(function* () {
          const items = yield* Effect.flatMap(CatalogStore, (s) => s.byItemGroup(principal.siteId, input.itemGroupId))
          if (items.length === 0) return yield* new NotFound({ message: `item group "${input.itemGroupId}" not found` })
          return { itemGroupId: input.itemGroupId, items: items.map(toItem) }
        })
      )
  })
] as const
