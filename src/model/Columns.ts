import { Schema } from "effect"
import { parseColorPath } from "../domain/Filters.js"
import type { ProductRecord } from "../domain/Product.js"
import type { PayloadValue } from "./IndexDocument.js"
import { fnv1a } from "../platform/Fnv1a.js"

/**
 * The filterable columns of a product, as the index payload holds them: where each value
 * comes from and how it is normalised, and what search offers on it. Documents, filters,
 * facets, refinements, the index's interning and the MCP column tools all read this one table.
 * Every column is filterable: by its values (by one of true/false for booleans), numbers by
 * intervals only.
 */
export const ColumnKind = Schema.Literal("category", "string", "color", "number", "boolean")
export type ColumnKind = typeof ColumnKind.Type

/** What a column's value is computed from: one product's record, its category paths and what its photos show. */
export interface ColumnSource {
  readonly record: ProductRecord
  /** Text-form paths of shopping_product_category, each ancestor included ("A", "A > B"). */
  readonly shoppingPaths: ReadonlyArray<string>
  /** Text-form paths of product_type, each ancestor included (may repeat across entries). */
  readonly typePaths: ReadonlyArray<string>
  /** When the catalog first received the product (ms since the epoch). */
  readonly addedAt: number
  /** Colour names and object classes seen in the product's photos (see visualAttributes). */
  readonly photos: { readonly colors: ReadonlyArray<string>; readonly objects: ReadonlyArray<string> }
}

/** A column offered as a dynamic filter on search results. */
export interface FacetRule {
  /** Display order among the facets. */
  readonly rank: number
  readonly primary: boolean
  /** How much a refinement on the column is worth to a shopper, before its balance is counted. */
  readonly refinementWeight: number
}

export interface Column {
  readonly name: string
  readonly kind: ColumnKind
  readonly label: string
  /** The record field the value comes from, when it is a single one. */
  readonly field: keyof ProductRecord | null
  /** The column's value for one product, normalised as filter values match it. */
  readonly value: (source: ColumnSource) => PayloadValue
  readonly facet: FacetRule | null
  /** The record field's own text joins the lexical `extra` text (a shopper may type it). */
  readonly searchable: boolean
  /** Values identify products rather than describe them (mostly unique): useless to filter on, not worth interning. */
  readonly identifying: boolean
  /**
   * The value comes from the record's own fields alone (not from category paths, photos or
   * when the product was added): a change of other fields recomputes it without the rest
   * (see `recordColumnValues`).
   */
  readonly recordOnly: boolean
}

/** A colour as columns hold it and filters match it: its lowercase name. */
export const colorTerm = (name: string): string => name.trim().toLowerCase()

/**
 * Colours as lowercase names; "Red/Black" and "red, black" both give ["red", "black"], and a
 * colour written `<color> > <hex>` (the interface's form) its name, as filters reduce it.
 */
export const colorNames = (color: string | null | undefined): ReadonlyArray<string> =>
  color
    ? color
        .split(/[/,]/)
        .map((entry) => colorTerm(parseColorPath(entry)?.name ?? entry))
        .filter((c) => c.length > 0)
    : []

/** A filter value of `column` as the column holds it: a colour written `<color> > <hex>` counts as its name. */
export const filterTerm = (column: Column, value: string): string =>
  column.kind === "color" ? colorTerm(parseColorPath(value)?.name ?? value) : value

/** The price a shopper pays: the sale price when there is a lower one. */
export const effectivePrice = (data: ProductRecord): number | null => {
  const { price, sale_price } = data
  if (sale_price != null && (price == null || sale_price < price)) return sale_price
  return price ?? null
}

/**
 * A title's place in A–Z order as a number (Qdrant orders by numbers only): its first ten
 * letters and digits, case and accents folded, other characters one space, in base 38, below
 * 2^53 so JSON keeps it exact. Titles alike in those ten are ordered by their whole folded
 * text (the `title_sort` column, see Listing.sortPrefix), then by relevance.
 */
export const titleOrder = (title: string | null | undefined): number | null => {
  const folded = foldTitle(title)
  if (folded.length === 0) return null
  let key = 0
  for (let i = 0; i < TITLE_DIGITS; i++) key = key * 38 + (i < folded.length ? titleDigit(folded.charCodeAt(i)) : 0)
  return key
}
const TITLE_DIGITS = 10

const foldTitle = (title: string | null | undefined): string =>
  title
    ? title
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, " ")
        .trim()
    : ""

/**
 * The same number for titles that read the same (case, accents and punctuation folded; FNV-1a):
 * a ranking spreads copies of one title apart (see Listing.spreadDuplicates).
 */
export const titleKey = (title: string | null | undefined): number | null => {
  const folded = foldTitle(title)
  if (folded.length === 0) return null
  return fnv1a(folded)
}
/** A title as A–Z order compares it whole: case, accents and punctuation folded; null when blank. */
export const titleSortKey = (title: string | null | undefined): string | null => foldTitle(title) || null

/** 0 ends the title, so "saw" comes before "saw blade": space 1, digits 2–11, letters 12–37. */
const titleDigit = (code: number): number => (code === 32 ? 1 : code <= 57 ? code - 46 : code - 85)

type Options = Partial<Pick<Column, "field" | "facet" | "searchable" | "identifying" | "recordOnly">>

const column = (
  name: string,
  kind: ColumnKind,
  label: string,
  value: Column["value"],
  options: Options = {}
): Column => ({
  name,
  kind,
  label,
  value,
  field: null,
  facet: null,
  searchable: false,
  identifying: false,
  recordOnly: true,
  ...options
})

/** A record string copied as it is, trimmed (filter values match exactly); blank is no value. */
const text = (field: keyof ProductRecord, label: string, options: Options = {}): Column =>
  column(
    field,
    "string",
    label,
    ({ record }) => {
      const value = record[field]
      return typeof value === "string" && value.trim().length > 0 ? value.trim() : null
    },
    { field, ...options }
  )

/** A record number or boolean as it is. */
const scalar = (field: keyof ProductRecord, kind: "number" | "boolean", label: string): Column =>
  column(field, kind, label, ({ record }) => (record[field] as number | boolean | null | undefined) ?? null, { field })

/** A comma-separated record string as its entries. */
const listed = (value: string | null | undefined): ReadonlyArray<string> =>
  value
    ? value
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry.length > 0)
    : []

/**
 * A facet; only the columns a shopper narrows a search by (category, brand, colour, price) carry
 * a refinement weight: the guiding stream never proposes a size, a gender or a material alone.
 */
const facet = (rank: number, refinementWeight = 0, primary = false): FacetRule => ({
  rank,
  primary,
  refinementWeight
})

const columns: ReadonlyArray<Column> = [
  // Category columns hold every ancestor path, so filtering on "A > B" also matches "A > B > C".
  column("category", "category", "Category", (s) => [...new Set([...s.shoppingPaths, ...s.typePaths])], {
    facet: facet(0, 1.3, true),
    recordOnly: false
  }),
  column("shopping_product_category", "category", "Shopping category", (s) => s.shoppingPaths, {
    field: "shopping_product_category",
    recordOnly: false
  }),
  column("product_type", "category", "Product type", (s) => [...new Set(s.typePaths)], {
    field: "product_type",
    recordOnly: false
  }),
  text("brand", "Brand", { facet: facet(1, 1, true) }),
  // The record's colour wins; a product without one is filterable by what its photos show.
  column(
    "color",
    "color",
    "Colour",
    ({ record, photos }) => {
      const named = colorNames(record.color)
      return named.length > 0 ? named : photos.colors.slice(0, 2)
    },
    { field: "color", facet: facet(3, 0.9), searchable: true, recordOnly: false }
  ),
  column("image_color", "color", "Colour in photos", (s) => s.photos.colors, { recordOnly: false }),
  column("image_object", "string", "Object in photos", (s) => s.photos.objects, { recordOnly: false }),
  column("price", "number", "Price", (s) => effectivePrice(s.record), { facet: facet(2, 0.6, true) }),
  column("list_price", "number", "List price", (s) => s.record.price ?? null, { field: "price" }),
  column("sale_price", "number", "Sale price", (s) => s.record.sale_price ?? null, { field: "sale_price" }),
  text("availability", "Availability", { facet: facet(4) }),
  text("condition", "Condition", { facet: facet(10) }),
  text("gender", "Gender", { facet: facet(5), searchable: true }),
  text("age_group", "Age group", { facet: facet(6), searchable: true }),
  text("size", "Size", { facet: facet(7), searchable: true }),
  text("size_type", "Size type"),
  text("size_system", "Size system"),
  text("material", "Material", { facet: facet(8), searchable: true }),
  text("pattern", "Pattern", { facet: facet(9), searchable: true }),
  text("energy_efficiency_class", "Energy efficiency class"),
  text("item_group_id", "Item group", { identifying: true }),
  text("promotion_id", "Promotion"),
  text("mpn", "MPN", { identifying: true, searchable: true }),
  column("gtin", "string", "GTIN", ({ record }) => listed(record.gtin), {
    field: "gtin",
    identifying: true,
    searchable: true
  }),
  scalar("multipack", "number", "Multipack"),
  scalar("adult", "boolean", "Adult"),
  scalar("is_bundle", "boolean", "Bundle"),
  text("custom_label_0", "Custom label 0"),
  text("custom_label_1", "Custom label 1"),
  text("custom_label_2", "Custom label 2"),
  text("custom_label_3", "Custom label 3"),
  text("custom_label_4", "Custom label 4"),
  column("title_order", "number", "Title order", ({ record }) => titleOrder(record.title), {
    field: "title",
    identifying: true
  }),
  column("title_sort", "string", "Title (folded, for sorting)", ({ record }) => titleSortKey(record.title), {
    field: "title",
    identifying: true
  }),
  column("title_key", "number", "Title key", ({ record }) => titleKey(record.title), {
    field: "title",
    identifying: true
  }),
  column("added_at", "number", "Added (ms since 1970)", (s) => s.addedAt, { recordOnly: false })
]

const byName = new Map(columns.map((c) => [c.name, c]))

export const allColumns = columns
export const findColumn = (name: string): Column | undefined => byName.get(name)
export const columnNames = columns.map((c) => c.name)

/** Columns offered as dynamic filters, in display order. */
export const facetColumns: ReadonlyArray<Column & { readonly facet: FacetRule }> = columns
  .filter((c): c is Column & { readonly facet: FacetRule } => c.facet !== null)
  .sort((a, b) => a.facet.rank - b.facet.rank)

/**
 * What a listing may be sorted by (the request's names), and the numeric column holding each;
 * popular and trending name shoppers' signals (learning/ShopperSignals.ts), which the index
 * sorts by like columns.
 */
/** The sort column whose ties are ordered by a text column (a number cannot hold a whole title). */
export const TEXT_TIE_BREAKS: Readonly<Record<string, string>> = { title_order: "title_sort" }

/** The column variants of one product share (colours and sizes of one article): listings show one per group. */
export const VARIANT_GROUP_COLUMN = "item_group_id"

export const sortColumns = {
  price: "price",
  title: "title_order",
  newest: "added_at",
  popular: "popularity",
  trending: "trending"
} as const satisfies Record<string, string>
/** The sort columns that are shoppers' signals, not index columns. */
export const SIGNAL_COLUMNS: ReadonlySet<string> = new Set(["popularity", "trending"])

/** The payload of one product: every column's value. */
export const columnValues = (source: ColumnSource): Record<string, PayloadValue> => {
  const payload: Record<string, PayloadValue> = {}
  for (const c of columns) payload[c.name] = c.value(source)
  return payload
}

const noPaths = { shoppingPaths: [], typePaths: [], addedAt: 0, photos: { colors: [], objects: [] } } as const

/** The values of `some` columns, each of which comes from the record alone (see Column.recordOnly). */
export const recordColumnValues = (
  record: ProductRecord,
  some: ReadonlyArray<Column>
): Record<string, PayloadValue> => {
  const payload: Record<string, PayloadValue> = {}
  const source: ColumnSource = { record, ...noPaths }
  for (const c of some) payload[c.name] = c.value(source)
  return payload
}

/** The record's own text of the searchable columns, for the lexical `extra` field. */
export const searchableText = (record: ProductRecord): ReadonlyArray<string> =>
  columns.flatMap((c) => {
    const value = c.searchable && c.field !== null ? record[c.field] : undefined
    return typeof value === "string" && value.length > 0 ? [value] : []
  })
