import { Either, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  categoryAncestors,
  decodeCategoryPath,
  EncodedCategoryPath,
  EncodedCategoryPathList,
  encodeCategoryPath,
  formatCategoryPath,
  normalizeCategoryPath,
  parseCategoryPath
} from "../../src/domain/CategoryPath.js"

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64url")

describe("category path text form", () => {
  it("splits on '>' and ignores whitespace around labels", () => {
    expect(parseCategoryPath("  Home &  Garden>Kitchen >  Knives ")).toEqual(["Home &  Garden", "Kitchen", "Knives"])
  })

  it("unescapes %3E inside a label and escapes it again when formatting", () => {
    const labels = parseCategoryPath("Cables > HDMI %3E DVI")
    expect(labels).toEqual(["Cables", "HDMI > DVI"])
    expect(formatCategoryPath(labels)).toBe("Cables > HDMI %3E DVI")
  })

  it("reads the sole label root as the root, and writes the root as root", () => {
    expect(parseCategoryPath(" root ")).toEqual([])
    expect(formatCategoryPath([])).toBe("root")
    expect(parseCategoryPath("root > Shoes")).toEqual(["root", "Shoes"])
  })

  it("drops empty labels", () => {
    expect(parseCategoryPath("A >> B >")).toEqual(["A", "B"])
  })

  it("normalizes to one spelling", () => {
    expect(normalizeCategoryPath("A>B  >C")).toBe("A > B > C")
    expect(normalizeCategoryPath("")).toBe("root")
  })

  it("lists every non-root prefix", () => {
    expect(categoryAncestors(["A", "B", "C"])).toEqual(["A", "A > B", "A > B > C"])
    expect(categoryAncestors(["x>y"])).toEqual(["x%3Ey"])
    expect(categoryAncestors([])).toEqual([])
  })
})

describe("category path wire form", () => {
  it.each(["A > B > C", "root", "Cables > HDMI %3E DVI", "Küche > Töpfe & Pfannen", "家電 > カメラ 📷"])(
    "round trips %s",
    (text) => {
      const encoded = encodeCategoryPath(text)
      expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/)
      expect(decodeCategoryPath(encoded)).toEqual(Either.right(text))
    }
  )

  it("encodes the normalized text form", () => {
    expect(encodeCategoryPath("  A>B ")).toBe(b64("A > B"))
  })

  it("normalizes what it decodes", () => {
    expect(decodeCategoryPath(b64(" A>B"))).toEqual(Either.right("A > B"))
  })

  it.each([
    ["padding", `${b64("ab")}==`],
    ["standard base64 alphabet", Buffer.from("A > B?>>").toString("base64")],
    ["characters outside the alphabet", "QSA+IEI!"],
    ["an impossible length", "QUJDR"],
    ["non-canonical trailing bits", "QR"],
    ["invalid UTF-8", Buffer.from([0xff, 0xfe, 0x41]).toString("base64url")],
    ["the empty string", ""]
  ])("rejects %s", (_, encoded) => {
    expect(Either.isLeft(decodeCategoryPath(encoded))).toBe(true)
  })

  it("decodes to text and encodes to base64url as a schema", () => {
    expect(Schema.decodeSync(EncodedCategoryPath)(b64("A > B"))).toBe("A > B")
    expect(Schema.encodeSync(EncodedCategoryPath)("A>B")).toBe(b64("A > B"))
  })

  it("names the rule when the wire value is invalid", () => {
    const result = Schema.decodeUnknownEither(Schema.Struct({ path: EncodedCategoryPath }))({ path: "a=" })
    const issues = Either.isLeft(result) ? ParseResult.ArrayFormatter.formatErrorSync(result.left) : []
    expect(issues).toEqual([
      { _tag: "Transformation", path: ["path"], message: "must be a Base64-URL (unpadded) encoded category path" }
    ])
  })

  it("encodes a list of paths as comma-joined encodings, and back", () => {
    const wire = Schema.encodeSync(EncodedCategoryPathList)("A > B, C")
    expect(wire).toBe(`${b64("A > B")},${b64("C")}`)
    expect(Schema.decodeSync(EncodedCategoryPathList)(wire)).toBe("A > B, C")
    expect(Either.isLeft(Schema.decodeEither(EncodedCategoryPathList)(`${b64("A")},**`))).toBe(true)
  })
})
