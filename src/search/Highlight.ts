import { boundedEditDistance } from "../services/catalog-index/qdrant/Variants.js"
import {
  completesPrefix,
  editBudget,
  numberedForm,
  queryWords,
  stem,
  type WordMatching,
  wordSpans
} from "../text/TextAnalysis.js"

/** Words of a description snippet (see `snippet`). */
export const SNIPPET_WORDS = 24

/**
 * Whether a text's word form matches one of the query's words as the index matches them: the
 * same stem, a typo within the word's budget, the completion of the last word typed live, a
 * model number's base, or the word numbered ("buds" → "buds2").
 */
const wordMatcher = (query: string, matching: WordMatching): ((form: string) => boolean) => {
  const words = queryWords(query)
  const last = words.at(-1)?.typed
  const tests = words.map((word) => {
    const budget = editBudget(word.typed, false, matching)
    const prefix = completesPrefix(word.typed, word.typed === last, matching)
    return (form: string) =>
      stem(form) === word.stem ||
      (budget > 0 && !/\p{N}/u.test(form) && boundedEditDistance(word.typed, form, budget) <= budget) ||
      (prefix && form.startsWith(word.typed)) ||
      numberedForm(word.typed, form)
  })
  return (form) => tests.some((test) => test(form))
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

/** `text[from, to)` HTML-escaped, the words `marked` holds wrapped in <mark>. */
const render = (
  text: string,
  spans: ReturnType<typeof wordSpans>,
  marked: ReadonlyArray<boolean>,
  from: number,
  to: number
): string => {
  let out = ""
  let at = from
  spans.forEach((span, i) => {
    if (!marked[i] || span.start < from || span.end > to) return
    out += `${escapeHtml(text.slice(at, span.start))}<mark>${escapeHtml(text.slice(span.start, span.end))}</mark>`
    at = span.end
  })
  return out + escapeHtml(text.slice(at, to))
}

/**
 * A title with the query's matched words marked, as the hosted engines return it: HTML-escaped,
 * each matched word in <mark>…</mark> (a hyphenated word whole when any of its forms matches).
 */
export const highlightTitle = (title: string, query: string, matching: WordMatching): string => {
  const matches = wordMatcher(query, matching)
  const spans = wordSpans(title)
  return render(
    title,
    spans,
    spans.map((span) => span.forms.some(matches)),
    0,
    title.length
  )
}

/**
 * A window of about SNIPPET_WORDS words of a (plain-text) description around its first matched
 * word, marked as a title is, with "…" where it is cut; its opening when no word matches; null
 * for an empty description.
 */
export const snippet = (description: string, query: string, matching: WordMatching): string | null => {
  const spans = wordSpans(description)
  if (spans.length === 0) return null
  const matches = wordMatcher(query, matching)
  const marked = spans.map((span) => span.forms.some(matches))
  const first = Math.max(0, marked.indexOf(true))
  // A few words of context before the first match.
  const start = Math.max(0, Math.min(first - 4, spans.length - SNIPPET_WORDS))
  const end = Math.min(spans.length, start + SNIPPET_WORDS) - 1
  const from = start === 0 ? 0 : spans[start].start
  const to = end === spans.length - 1 ? description.length : spans[end].end
  return `${start > 0 ? "…" : ""}${render(description, spans, marked, from, to)}${to < description.length ? "…" : ""}`
}
