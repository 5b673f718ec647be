import { ParseResult, Schema } from "effect"

/** A dense embedding vector, as the models produce it and the indexes hold it. */
export const Vector = Schema.declare((u: unknown): u is Float32Array => u instanceof Float32Array, {
  identifier: "Float32Array"
})

/**
 * A vector as raw Float32 bytes (Redis hash fields, SQLite blobs, change-feed entries): exact,
 * and a quarter of its JSON size. Decoding copies, because a Float32Array needs a 4-byte
 * aligned offset, which a slice of a socket buffer may not have.
 */
export const VectorFromBytes = Schema.transformOrFail(
  Schema.declare((u: unknown): u is Buffer => Buffer.isBuffer(u), { identifier: "Buffer" }),
  Vector,
  {
    strict: true,
    decode: (b, _, ast) =>
      b.byteLength % 4 === 0
        ? ParseResult.succeed(new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)))
        : ParseResult.fail(
            new ParseResult.Type(ast, b, `${b.byteLength} bytes are not a whole number of Float32 values`)
          ),
    encode: (v) => ParseResult.succeed(vectorBytes(v))
  }
)

/** The vector's bytes without a copy. */
export const vectorBytes = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength)

/** A vector as base64 of its Float32 bytes, for JSON documents. */
export const VectorFromBase64 = Schema.transformOrFail(Schema.String, VectorFromBytes, {
  strict: true,
  decode: (s) => ParseResult.succeed(Buffer.from(s, "base64")),
  encode: (b) => ParseResult.succeed(b.toString("base64"))
})
