/**
 * Text no store or index should hold, refused at the edge with the field it is in: the NUL
 * character (C strings, SQLite, Redis and Qdrant clients cut or refuse it), lone UTF-16
 * surrogates (no UTF-8 form: they would be stored as something else than was sent), and U+FFFD,
 * which is what the body's bytes became where they were not UTF-8 (a catalog exported in
 * another encoding).
 */

/** Cheap test on the raw JSON text: only a body that may hold such text is parsed and walked. */
const SUSPECT = /\\u|\uFFFD/i

/** A high surrogate without its low half, or a low one without its high half (code units, hence no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const problem = (text: string): string | undefined => {
  if (text.includes("\u0000")) return "must not contain the NUL character (U+0000)"
  if (LONE_SURROGATE.test(text)) return "must be valid Unicode (it holds a lone surrogate)"
  if (text.includes("\uFFFD")) return "must be UTF-8 (it holds U+FFFD, which bytes that were not UTF-8 became)"
  return undefined
}

const find = (value: unknown, path: string): string | undefined => {
  if (typeof value === "string") {
    const found = problem(value)
    return found === undefined ? undefined : `${path}: ${found}`
  }
  if (typeof value !== "object" || value === null) return undefined
  for (const [key, item] of Object.entries(value)) {
    const where = path === "" ? key : `${path}.${key}`
    const inKey = problem(key)
    if (inKey !== undefined) return `${where}: the field name ${inKey}`
    const inValue = find(item, where)
    if (inValue !== undefined) return inValue
  }
  return undefined
}

/** "data.title: must not contain the NUL character (U+0000)", or undefined when the body's text is clean. */
export const unsafeTextIn = (jsonText: string): string | undefined => {
  if (!SUSPECT.test(jsonText)) return undefined
  let value: unknown
  try {
    value = JSON.parse(jsonText)
  } catch {
    return undefined // not JSON: the decoder answers that
  }
  const found = find(value, "")
  return found?.startsWith(": ") ? `body${found}` : found
}

/** Whether a request path holds percent-escapes that are not UTF-8 (the router then finds no route). */
export const malformedPercentEncoding = (path: string): boolean => {
  try {
    decodeURIComponent(path)
    return false
  } catch {
    return true
  }
}
