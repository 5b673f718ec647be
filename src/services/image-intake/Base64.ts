import { Effect } from "effect"
import { imageFailure, ImageMalformed, type ImageRejected, ImageTooLarge, megabytes } from "./IntakeErrors.js"

// Parameters such as ";name=shoe.jpg" may precede ";base64", as some encoders add them.
const DATA_URL_HEADER = /^data:image\/[\w.+-]+(;[\w.+-]+=[^;,]*)*;base64$/i
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/**
 * The bytes of plain base64 (line breaks allowed, as MIME encoders wrap) or of a
 * `data:image/<type>;base64,` URL. The declared type is not trusted: decoding sniffs the bytes.
 * The size is judged from the text, so an oversized image is refused before it is decoded.
 */
export const base64Bytes = (data: string, field: string, maxBytes: number): Effect.Effect<Uint8Array, ImageRejected> =>
  Effect.suspend((): Effect.Effect<Uint8Array, ImageRejected> => {
    let payload = data
    if (/^data:/i.test(data)) {
      const comma = data.indexOf(",")
      if (comma < 0 || !DATA_URL_HEADER.test(data.slice(0, comma))) {
        return Effect.fail(
          imageFailure(ImageMalformed, field, "a data URL must have the form data:image/<type>;base64,<data>")
        )
      }
      payload = data.slice(comma + 1)
    }
    const text = payload.replace(/\s+/g, "")
    if (text === "") return Effect.fail(imageFailure(ImageMalformed, field, "the image is empty"))
    // Buffer.from(…, "base64") skips characters it does not know, so check strictly first.
    if (!BASE64.test(text) || text.length % 4 === 1) {
      return Effect.fail(imageFailure(ImageMalformed, field, "is neither base64 nor a data URL with a base64 image"))
    }
    const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0
    const size = Math.floor((text.length * 3) / 4) - padding
    if (size > maxBytes) {
      return Effect.fail(
        imageFailure(
          ImageTooLarge,
          field,
          `the image is ${megabytes(size)}, more than the limit of ${megabytes(maxBytes)}`
        )
      )
    }
    return Effect.succeed(Buffer.from(text, "base64"))
  })
