import { Either, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { ProductId, SetProductBody } from "../../src/domain/Catalog.js"
import { compiledDecoder, compiles } from "../../src/domain/CompiledCheck.js"
import { PatchProductBody } from "../../src/model/MergePatch.js"
import { ProductImagesField, ProductRecord } from "../../src/domain/Product.js"

/*
 * The compiled decoder must decide exactly as Effect's: every input below is decoded by both,
 * and the answers (the value, or the formatted issues) compared.
 */

const strictly = { errors: "all", onExcessProperty: "error" } as const
const PutLine = Schema.Struct({ id: ProductId, data: ProductRecord, images: ProductImagesField })
const PatchLine = Schema.Struct({ id: ProductId, patch: PatchProductBody })

const answer = (result: Either.Either<unknown, ParseResult.ParseError>) =>
  Either.isRight(result) ? { value: result.right } : { issues: ParseResult.ArrayFormatter.formatErrorSync(result.left) }

const agree = <A, I>(
  schema: Schema.Schema<A, I, never>,
  options: typeof strictly | undefined,
  inputs: ReadonlyArray<unknown>
) => {
  const effect = Schema.decodeUnknownEither(schema, options)
  const compiled = compiledDecoder(schema, options)
  for (const input of inputs) expect({ input, ...answer(compiled(input)) }).toEqual({ input, ...answer(effect(input)) })
}

/** Values of every kind a JSON body can hold, and the edge cases of the record's rules. */
const candidates: ReadonlyArray<unknown> = [
  null,
  true,
  false,
  0,
  -1,
  1,
  2.5,
  1e308,
  "",
  " ",
  "x",
  "x".repeat(71),
  "x".repeat(101),
  "x".repeat(201),
  [],
  ["a"],
  {},
  { a: 1 },
  "https://shop.example/p/1",
  "ftp://shop.example/p/1",
  "not a url",
  "Home > Garden",
  " > ",
  "Home > Garden, Toys",
  "12345678",
  "1234567890123",
  "123",
  "12345678, 1234567890123",
  "10.5 cm",
  "10.5cm",
  "cm 10",
  "in_stock",
  "gone",
  "A+++",
  "new",
  "kids",
  "unisex",
  "plus",
  "EU",
  "general:color:red",
  "color:red",
  '"Fast, quiet","Two years"',
  '"unclosed'
]

const fields = Object.keys(ProductRecord.fields)

describe("compiledDecoder", () => {
  it("compiles the write path's schemas (their decoded values are their inputs) and declines a transformation", () => {
    expect([PutLine, PatchLine, SetProductBody, ProductId, Schema.encodedSchema(ProductRecord)].map(compiles)).toEqual([
      true,
      true,
      true,
      true,
      true
    ])
    expect(compiles(Schema.NumberFromString)).toBe(false)
    expect(compiles(Schema.Struct({ n: Schema.NumberFromString }))).toBe(false)
  })

  it("decides every record field's candidate values as Effect does, the value or the issues", () => {
    const records = fields.flatMap((field) => candidates.map((value) => ({ [field]: value })))
    agree(
      Schema.Struct({ data: ProductRecord }),
      strictly,
      records.map((data) => ({ data }))
    )
    agree(Schema.encodedSchema(ProductRecord), undefined, records)
  })

  it("decides bulk lines as Effect does: ids, images, excess and missing keys, patches", () => {
    const record = { title: "Cordless drill", price: 89.9, availability: "in_stock", link: "https://shop.example/p/1" }
    const lines: Array<unknown> = [
      { id: "p1", data: record },
      { id: "p1", data: record, images: [] },
      { id: "p1", data: record, images: [{ url: "https://img.example/1.jpg" }] },
      { id: "p1", data: record, images: [{ url: "not a url" }] },
      { id: "p1", data: record, images: [{ url: "https://img.example/1.jpg", alt: "x" }] },
      { id: "p1", data: record, images: {} },
      { id: "p1", data: { ...record, extra: 1 } },
      { id: "p1", data: record, extra: 1 },
      { id: "p1" },
      { data: record },
      ...["", "a/b", ".", "..", "x".repeat(201), "tab\there", 7, null].map((id) => ({ id, data: record })),
      { id: "p1", data: { ...record, price: -1, title: 5 } },
      null,
      [],
      "line",
      3
    ]
    agree(PutLine, strictly, lines)
    agree(PatchLine, strictly, [
      { id: "p1", patch: { data: { price: 12 } } },
      { id: "p1", patch: { data: { price: null, anything: [1, { a: 2 }] } } },
      { id: "p1", patch: { images: null } },
      { id: "p1", patch: { images: [{ url: "x" }] } },
      { id: "p1", patch: { images: "x" } },
      { id: "p1", patch: { data: [] } },
      { id: "p1", patch: { data: { price: 1 }, extra: true } },
      { id: "p1", patch: {} },
      { id: "p1" }
    ])
  })

  it("keeps Effect's output where the decoder strips an excess key (the default options)", () => {
    const decode = compiledDecoder(Schema.encodedSchema(ProductRecord))
    expect(decode({ title: "Drill", legacy_field: 1 })).toEqual(Either.right({ title: "Drill" }))
  })
})
