import { Array as Arr, Option, ParseResult, Schema, SchemaAST } from "effect"
import { parseCategoryPath, normalizeCategoryPath } from "./CategoryPath.js"

/*
 * Wire helpers shared by every domain schema. A union reports one issue per member, so a
 * bad enumeration or a bad nullable value would read "Expected null, actual ..." next to the
 * real reason; these helpers report the one message that names the rule instead.
 */

/** An enumeration whose decode failure lists what is allowed. */
export const oneOf = <const L extends ReadonlyArray<string>>(...values: L) =>
  Schema.Literal(...values).annotations({
    message: () => ({ message: `must be one of: ${values.join(", ")}`, override: true })
  })

const isAbsentMember = (issue: ParseResult.ParseIssue) =>
  issue._tag === "Type" &&
  (SchemaAST.isUndefinedKeyword(issue.ast) || (SchemaAST.isLiteral(issue.ast) && issue.ast.literal === null))

/** The input does not even have the member's shape (as opposed to breaking one of its rules). */
const isShapeMismatch = (issue: ParseResult.ParseIssue): boolean =>
  issue._tag === "Type" ||
  (issue._tag === "Refinement" && issue.kind === "From" && isShapeMismatch(issue.issue)) ||
  (issue._tag === "Transformation" && issue.kind === "Encoded" && isShapeMismatch(issue.issue))

const formatIssues = (issues: ReadonlyArray<ParseResult.ParseIssue>) =>
  issues
    .flatMap((i) => ParseResult.ArrayFormatter.formatIssueSync(i))
    .map((e) => (e.path.length > 0 ? `at ${e.path.join(".")}: ${e.message}` : e.message))
    .join("; ")

const memberIssues = (issue: ParseResult.ParseIssue) =>
  issue._tag === "Composite" ? Arr.ensure(issue.issues) : [issue]

const presentMemberMessage = (issue: ParseResult.ParseIssue) => ({
  message: formatIssues(memberIssues(issue).filter((i) => !isAbsentMember(i))),
  override: true
})

/**
 * For a union of differently shaped members: the issues of the member whose shape the input
 * has, or else `expected`, which names the allowed shapes.
 */
export const shapesMessage = (expected: string) => (issue: ParseResult.ParseIssue) => {
  const broken = memberIssues(issue).filter((i) => !isShapeMismatch(i))
  return { message: broken.length > 0 ? formatIssues(broken) : expected, override: true }
}

/**
 * An optional field. Unlike `Schema.optional`, decoding does not try `undefined` as a union
 * member (JSON has none), so a bad value yields only its own issue; encoding still accepts an
 * explicit `undefined` and leaves the key out.
 */
export const optionalField = <A, I, R>(schema: Schema.Schema<A, I, R>) =>
  Schema.optionalToOptional(schema, Schema.UndefinedOr(Schema.typeSchema(schema)), {
    decode: (value) => value,
    encode: Option.filter((value): value is A => value !== undefined)
  })

/** A required scalar that may be null. */
export const orNull = <S extends Schema.Schema.Any>(schema: S) =>
  Schema.NullOr(schema).annotations({ message: presentMemberMessage })

/** An optional scalar that may be null (or undefined, as `Schema.optional` allows). */
export const nullable = <S extends Schema.Schema.Any>(schema: S) =>
  Schema.optionalWith(
    Schema.Union(schema, Schema.Null, Schema.Undefined).annotations({ message: presentMemberMessage }),
    {
      exact: true
    }
  )

export const maxChars = <S extends Schema.Schema.Any>(max: number) =>
  Schema.maxLength<S>(max, { message: () => `must be at most ${max} characters` })

const isHttpUrl = (s: string): boolean => {
  try {
    const { protocol } = new URL(s)
    return protocol === "http:" || protocol === "https:"
  } catch {
    return false
  }
}

export const HttpUrl = Schema.String.pipe(
  Schema.filter(isHttpUrl, { message: () => "must be an absolute http(s) URL" })
)

export const EnergyClass = oneOf("A+++", "A++", "A+", "A", "B", "C", "D", "E", "F", "G")
export type EnergyClass = typeof EnergyClass.Type

/** Comma-separated list; the empty string is the empty list. */
const listEntries = (s: string): ReadonlyArray<string> =>
  s.trim() === "" ? [] : s.split(",").map((entry) => entry.trim())

const MEASURE = /^(\d+(?:\.\d+)?)\s+(\p{L}+)$/u

/** "10.5 cm" → { value: 10.5, unit: "cm" }; null when not of the form `<number> <unit>`. */
export const parseMeasure = (s: string): { readonly value: number; readonly unit: string } | null => {
  const match = MEASURE.exec(s.trim())
  return match ? { value: Number(match[1]), unit: match[2] } : null
}

export interface ProductDetail {
  readonly section: string
  readonly attribute: string
  readonly value: string
}

// The section may be empty (feeds often omit it); the value keeps any further colons.
const detailEntry = (entry: string): ProductDetail | null => {
  const first = entry.indexOf(":")
  const second = first < 0 ? -1 : entry.indexOf(":", first + 1)
  if (second < 0) return null
  const attribute = entry.slice(first + 1, second).trim()
  const value = entry.slice(second + 1).trim()
  return attribute && value ? { section: entry.slice(0, first).trim(), attribute, value } : null
}

/** `<section>:<attribute>:<value>` entries; malformed entries are skipped. */
export const parseProductDetails = (s: string): ReadonlyArray<ProductDetail> =>
  listEntries(s)
    .map(detailEntry)
    .filter((d): d is ProductDetail => d !== null)

const HIGHLIGHT = /\s*"((?:[^"]|"")*)"\s*(,|$)/y

// Quotes are doubled inside a highlight, as in CSV.
const scanHighlights = (s: string): ReadonlyArray<string> | null => {
  const highlights: Array<string> = []
  HIGHLIGHT.lastIndex = 0
  let match: RegExpExecArray | null = null
  while (HIGHLIGHT.lastIndex < s.length) {
    match = HIGHLIGHT.exec(s)
    const text = match?.[1].replaceAll('""', '"').trim()
    if (!text) return null
    highlights.push(text)
  }
  return match?.[2] === "," ? null : highlights
}

/**
 * `"Fast, quiet","Two years warranty"` → ["Fast, quiet", "Two years warranty"]. Input that is
 * not quoted throughout (older data) falls back to a plain split on commas.
 */
export const parseHighlights = (s: string): ReadonlyArray<string> =>
  scanHighlights(s) ??
  listEntries(s)
    .map((h) => h.replaceAll('"', "").trim())
    .filter((h) => h.length > 0)

const GTIN = /^(\d{8}|\d{12,14})$/

export const parseGtins = (s: string): ReadonlyArray<string> => listEntries(s).filter((code) => code !== "")

/** Normalized text forms of the category paths of a product_type value. */
export const parseProductTypes = (s: string): ReadonlyArray<string> =>
  listEntries(s)
    .filter((entry) => parseCategoryPath(entry).length > 0)
    .map(normalizeCategoryPath)

const text = (max: number) => Schema.String.pipe(maxChars(max))
const formatted = (valid: (s: string) => boolean, message: string, max?: number) => {
  const base: Schema.Schema<string> = max === undefined ? Schema.String : text(max)
  return base.pipe(Schema.filter(valid, { message: () => message }))
}

const Measure = formatted((s) => parseMeasure(s) !== null, 'must be of the form `<number> <unit>`, e.g. "10.5 cm"')
const Amount = Schema.Number.pipe(
  Schema.filter((n) => Number.isFinite(n) && n >= 0, { message: () => "must be a finite number >= 0" })
)

/** Spec "Product record": every field optional and nullable. */
export const ProductRecord = Schema.Struct({
  title: nullable(Schema.String),
  description: nullable(Schema.String),
  link: nullable(HttpUrl),
  mobile_link: nullable(HttpUrl),
  availability: nullable(oneOf("in_stock", "out_of_stock", "preorder", "backorder")),
  price: nullable(Amount),
  sale_price: nullable(Amount),
  shopping_product_category: nullable(
    formatted((s) => parseCategoryPath(s).length > 0, 'must be a category path such as "A > B"', 500)
  ),
  product_type: nullable(
    formatted(
      (s) => listEntries(s).every((entry) => parseCategoryPath(entry).length > 0),
      "must be a comma-separated list of category paths",
      3758
    )
  ),
  brand: nullable(text(70)),
  gtin: nullable(
    formatted(
      (s) => listEntries(s).every((code) => GTIN.test(code)),
      "must be a comma-separated list of GTIN codes of 8, 12, 13 or 14 digits",
      158
    )
  ),
  mpn: nullable(text(70)),
  condition: nullable(oneOf("new", "refurbished", "used")),
  adult: nullable(Schema.Boolean),
  multipack: nullable(
    Schema.Number.pipe(
      Schema.filter((n) => Number.isInteger(n) && n >= 1, { message: () => "must be an integer >= 1" })
    )
  ),
  is_bundle: nullable(Schema.Boolean),
  energy_efficiency_class: nullable(EnergyClass),
  min_energy_efficiency_class: nullable(EnergyClass),
  max_energy_efficiency_class: nullable(EnergyClass),
  age_group: nullable(oneOf("newborn", "infant", "toddler", "kids", "adult")),
  color: nullable(text(100)),
  gender: nullable(oneOf("male", "female", "unisex")),
  material: nullable(text(200)),
  pattern: nullable(text(100)),
  size: nullable(text(100)),
  size_type: nullable(oneOf("regular", "petite", "tall", "plus", "big", "maternity")),
  size_system: nullable(oneOf("AU", "BR", "CN", "DE", "EU", "FR", "IT", "JP", "MEX", "UK", "US")),
  item_group_id: nullable(text(50)),
  custom_label_0: nullable(Schema.String),
  custom_label_1: nullable(Schema.String),
  custom_label_2: nullable(Schema.String),
  custom_label_3: nullable(Schema.String),
  custom_label_4: nullable(Schema.String),
  promotion_id: nullable(text(50)),
  product_detail: nullable(
    formatted(
      (s) => listEntries(s).every((entry) => detailEntry(entry) !== null),
      "must be comma-separated entries of the form `<section>:<attribute>:<value>`"
    )
  ),
  product_highlight: nullable(
    formatted((s) => scanHighlights(s) !== null, "must be a comma-separated list of double-quoted highlights", 1518)
  ),
  product_length: nullable(Measure),
  product_width: nullable(Measure),
  product_height: nullable(Measure),
  product_weight: nullable(Measure)
}).annotations({ identifier: "ProductRecord" })
export type ProductRecord = typeof ProductRecord.Type

export const ProductImage = Schema.Struct({ url: HttpUrl })
export type ProductImage = typeof ProductImage.Type

export const ProductImages = Schema.Array(ProductImage)

/**
 * A write's optional image list. Exact, not `optionalField`: that one is a transformation,
 * which makes Effect decode the whole enclosing struct twice (its encoded and its type side),
 * and the product record beside it is most of a catalog write's validation.
 */
export const ProductImagesField = Schema.optionalWith(ProductImages, { exact: true })
export type ProductImages = typeof ProductImages.Type
