/**
 * What every ingestion peer indexes of a pushed line: the product's text fields (the ones our
 * index reads words from), each as one string.
 */
export const PEER_FIELDS = [
  "title",
  "brand",
  "description",
  "product_type",
  "product_highlight",
  "product_detail",
  "color",
  "material"
] as const

const text = (value: unknown): string => {
  if (value === undefined || value === null) return ""
  if (typeof value === "string") return value
  if (Array.isArray(value)) return value.map(text).join(" ")
  if (typeof value === "object") return Object.values(value).map(text).join(" ")
  return String(value)
}

/** A bulk line `{"id", "data"}` as a peer's document: its id and the text fields. */
export const peerDocument = (line: { readonly id: string; readonly data: Record<string, unknown> }) => {
  const doc: Record<string, string> = { id: line.id }
  for (const field of PEER_FIELDS) doc[field] = text(line.data[field])
  return doc
}
