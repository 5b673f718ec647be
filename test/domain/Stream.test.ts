import { Either, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Stream } from "../../src/domain/Stream.js"

const issuesOf = (input: unknown) => {
  const result = Schema.decodeUnknownEither(Stream, { onExcessProperty: "error", errors: "all" })(input)
  return Either.isLeft(result)
    ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((i) => [i.path, i.message])
    : []
}

const textPart = {
  text: {
    content: "Looking for **boots**?",
    annotations: [
      {
        locator: { start: 16, length: 5 },
        data: { type: "products", items: [{ productId: "p-1" }] },
        interactions: { dynamicFilters: [] }
      }
    ]
  }
}

describe("Stream", () => {
  it("accepts every kind of part", () => {
    const stream = {
      items: [
        { role: "system", parts: [{ text: { content: "Help the shopper.", annotations: [] } }] },
        { role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }] },
        {
          role: "assistant",
          parts: [textPart, { functionCall: { id: "c1", name: "apply_filter", args: { column: "color" } } }]
        },
        { role: "client", parts: [{ functionResponse: { id: "c1", name: "apply_filter", response: { ok: true } } }] },
        { role: "assistant", parts: [{ fileData: { mimeType: "image/jpeg", fileUri: "https://cdn.example/a.jpg" } }] }
      ]
    }
    expect(issuesOf(stream)).toEqual([])
  })

  it("requires exactly one payload per part", () => {
    const message = "must hold exactly one of: text, inlineData, functionCall, functionResponse, fileData"
    expect(issuesOf({ items: [{ role: "user", parts: [{}] }] })).toEqual([[["items", 0, "parts", 0], message]])
    const two = { ...textPart, fileData: { mimeType: "image/jpeg", fileUri: "https://cdn.example/a.jpg" } }
    expect(issuesOf({ items: [{ role: "user", parts: [two] }] })).toEqual([[["items", 0, "parts", 0], message]])
  })

  it("lists the roles", () => {
    expect(issuesOf({ items: [{ role: "bot", parts: [] }] })).toEqual([
      [["items", 0, "role"], "must be one of: assistant, system, user, client"]
    ])
  })

  it("checks annotations: locator integers, the data type and required interactions", () => {
    const annotation = textPart.text.annotations[0]
    const withAnnotation = (a: unknown) => ({
      items: [{ role: "assistant", parts: [{ text: { content: "x", annotations: [a] } }] }]
    })
    const at = ["items", 0, "parts", 0, "text", "annotations", 0]
    expect(issuesOf(withAnnotation({ ...annotation, locator: { start: 1.5, length: 2 } }))[0]?.[0]).toEqual([
      ...at,
      "locator",
      "start"
    ])
    expect(issuesOf(withAnnotation({ ...annotation, data: { type: "trends", items: [] } }))[0]?.[0]).toEqual([
      ...at,
      "data",
      "type"
    ])
    expect(issuesOf(withAnnotation({ locator: annotation.locator }))).toEqual([[[...at, "interactions"], "is missing"]])
  })

  it("requires base64 inline data and a function name", () => {
    expect(
      issuesOf({ items: [{ role: "user", parts: [{ inlineData: { mimeType: "image/png", data: "not base64!" } }] }] })
    ).toEqual([[["items", 0, "parts", 0, "inlineData", "data"], "must be base64 encoded"]])
    expect(issuesOf({ items: [{ role: "assistant", parts: [{ functionCall: { args: {} } }] }] })).toEqual([
      [["items", 0, "parts", 0, "functionCall", "name"], "is missing"]
    ])
  })
})
