/**
 * The model's cost grows with text length (its attention is quadratic in tokens), and the
 * head of a product text carries most of its meaning, so longer texts are cut here.
 */
export const MAX_TEXT_CHARS = 2_000

/**
 * The text the model is given, and the query cache key. The model is uncased (its tokenizer
 * lowercases and splits on whitespace), so "Cordless  Drill" and "cordless drill" embed alike
 * and share one cache entry.
 */
export const normaliseText = (text: string): string => {
  const collapsed = text.normalize("NFKC").replace(/\s+/g, " ").trim().toLowerCase()
  if (collapsed.length <= MAX_TEXT_CHARS) return collapsed
  const cut = collapsed.slice(0, MAX_TEXT_CHARS)
  // Do not leave half of a surrogate pair (an emoji, say) at the end.
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut
}
