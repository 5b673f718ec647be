/**
 * Text no store or index should hold, refused at the edge with the field it is in: the NUL
 * character (C strings, SQLite, Redis and Qdrant clients cut or refuse it), lone UTF-16
 * surrogates (no UTF-8 form: they would be stored as something else than was sent), and bytes
 * that are not UTF-8 (a catalog exported in another encoding), which the decoder turned into
 * U+FFFD: such a body is refused naming the first field holding U+FFFD. U+FFFD itself is a valid
 * character (scraped feeds hold it) and is accepted from a body that is UTF-8.
 */

/** Cheap test on the raw JSON text: only a body that may hold such text is parsed and walked. */
const SUSPECT = /\\u/i
const REPLACED = /\uFFFD/

/** A high surrogate without its low half, or a low one without its high half (code units, hence no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const NOT_UTF8 = "must be UTF-8 (the body holds bytes that are not UTF-8 here)"

const problem = (text: string, utf8: boolean): string | undefined => {
  if (text.includes("\u0000")) return "must not contain the NUL character (U+0000)"
  if (LONE_SURROGATE.test(text)) return "must be valid Unicode (it holds a lone surrogate)"
  if (!utf8 && text.includes("\uFFFD")) return NOT_UTF8
  return undefined
}

const find = (value: unknown, path: string, utf8: boolean): string | undefined => {
  if (typeof value === "string") {
    const found = problem(value, utf8)
    return found === undefined ? undefined : `${path}: ${found}`
  }
  if (typeof value !== "object" || value === null) return undefined
  for (const [key, item] of Object.entries(value)) {
    const where = path === "" ? key : `${path}.${key}`
    const inKey = problem(key, utf8)
    if (inKey !== undefined) return `${where}: the field name ${inKey}`
    const inValue = find(item, where, utf8)
    if (inValue !== undefined) return inValue
  }
  return undefined
}

/**
 * "data.title: must not contain the NUL character (U+0000)", or undefined when the body's text
 * is clean; `utf8` says whether the bytes it was decoded from were UTF-8.
 */
export const unsafeTextIn = (jsonText: string, utf8: boolean): string | undefined => {
  if (!SUSPECT.test(jsonText) && (utf8 || !REPLACED.test(jsonText))) return undefined
  let value: unknown
  try {
    value = JSON.parse(jsonText)
  } catch {
    // Not JSON: the decoder answers that, unless the bytes were not UTF-8 to begin with.
    return utf8 ? undefined : `body: ${NOT_UTF8}`
  }
  const found = find(value, "", utf8) ?? (utf8 ? undefined : `body: ${NOT_UTF8}`)
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
