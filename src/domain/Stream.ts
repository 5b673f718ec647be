import { Schema } from "effect"
import { Interactions } from "./Interactions.js"
import { oneOf, optionalField } from "./Product.js"
import { ResultEntity, Uri } from "./ResultEntity.js"

export const Locator = Schema.Struct({
  start: Schema.Int.pipe(Schema.nonNegative({ message: () => "must be an integer >= 0" })),
  length: Schema.Int.pipe(Schema.nonNegative({ message: () => "must be an integer >= 0" }))
})
export type Locator = typeof Locator.Type

/** The only annotation data type the spec shows; others join this as union members, keyed by `type`. */
export const ProductsAnnotationData = Schema.Struct({
  type: Schema.Literal("products"),
  items: Schema.Array(ResultEntity)
})
export type ProductsAnnotationData = typeof ProductsAnnotationData.Type

export const Annotation = Schema.Struct({
  locator: Locator,
  data: optionalField(ProductsAnnotationData),
  interactions: Interactions
})
export type Annotation = typeof Annotation.Type

export const TextPart = Schema.Struct({
  content: Schema.String,
  annotations: Schema.Array(Annotation)
})

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

export const InlineData = Schema.Struct({
  mimeType: Schema.String,
  data: Schema.String.pipe(Schema.filter((s) => BASE64.test(s), { message: () => "must be base64 encoded" }))
})

const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** A call the assistant makes or asks the client to make; the response repeats its id. */
export const FunctionCall = Schema.Struct({
  id: optionalField(Schema.String),
  name: Schema.String,
  args: optionalField(JsonObject)
})

export const FunctionResponse = Schema.Struct({
  id: optionalField(Schema.String),
  name: Schema.String,
  response: JsonObject
})

export const FileData = Schema.Struct({ mimeType: Schema.String, fileUri: Uri })

const partKinds = ["text", "inlineData", "functionCall", "functionResponse", "fileData"] as const

/**
 * One part holds exactly one payload. Modelled as one struct with a rule rather than a union,
 * so an invalid part yields one message instead of one per alternative.
 */
export const StreamPart = Schema.Struct({
  text: optionalField(TextPart),
  inlineData: optionalField(InlineData),
  functionCall: optionalField(FunctionCall),
  functionResponse: optionalField(FunctionResponse),
  fileData: optionalField(FileData)
}).pipe(
  Schema.filter((part) => partKinds.filter((k) => part[k] !== undefined).length === 1, {
    message: () => `must hold exactly one of: ${partKinds.join(", ")}`
  })
)
export type StreamPart = typeof StreamPart.Type

export const StreamItem = Schema.Struct({
  role: oneOf("assistant", "system", "user", "client"),
  parts: Schema.Array(StreamPart)
})
export type StreamItem = typeof StreamItem.Type

export const Stream = Schema.Struct({ items: Schema.Array(StreamItem) }).annotations({ identifier: "Stream" })
export type Stream = typeof Stream.Type
