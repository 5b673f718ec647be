import { Effect } from "effect"
import type { ResultEntity } from "../domain/ResultEntity.js"
import { boundedEditDistance } from "../text/EditDistance.js"
import type { CatalogStore } from "../services/catalog-store/CatalogStore.js"
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
 * For each word of a text, the query's words it matches as the index matches them: the same
 * stem, the completion of the last word typed live, a model number's base, or the word numbered
 * ("buds" → "buds2"), or one of the site's synonyms of it; failing all of these anywhere in the text, a typo within the word's budget
 * (the fewest edits only under `typoTolerance: "min"`). A word the text holds whole marks no
 * typos ("shirt" leaves "Short" of "Short Sleeve Shirt" alone), nor does a word of the language
 * ("couch" is no typo of "coach"); words holding digits never match as typos. A word matches
 * when any of its forms does, so a hyphenated word is marked whole.
 */
const matchedWords = (
  query: string,
  matching: WordMatching,
  spans: ReadonlyArray<{ readonly forms: ReadonlyArray<string> }>
): Array<ReadonlyArray<number>> => {
  const words = queryWords(query)
  const last = words.at(-1)?.typed
  const forms = [...new Set(spans.flatMap((span) => span.forms))]
  const tests = words.map((word) => {
    const prefix = completesPrefix(word.typed, word.typed === last, matching)
    // The site's synonyms of the word, and of a phrase it begins ("airpods" marks "Buds").
    const synonyms = new Set([
      ...(matching.synonyms?.terms.get(word.stem) ?? []).map((alternative) => alternative.term),
      ...(matching.synonyms?.phrases ?? []).filter((phrase) => phrase.group === word.group).map((p) => p.term)
    ])
    const whole = (form: string) =>
      stem(form) === word.stem ||
      synonyms.has(stem(form)) ||
      (prefix && form.startsWith(word.typed)) ||
      numberedForm(word.typed, form)
    const budget = matching.languageWords?.includes(word.typed) ? 0 : editBudget(word.typed, false, matching)
    if (budget === 0 || forms.some(whole)) return whole
    const edits = (form: string) =>
      /\p{N}/u.test(form)
        ? budget + 1
        : Math.min(boundedEditDistance(word.typed, form, budget), boundedEditDistance(word.stem, stem(form), budget))
    const limit = matching.typoTolerance === "min" ? Math.min(budget, ...forms.map(edits)) : budget
    return (form: string) => edits(form) <= limit
  })
  return spans.map((span) => tests.flatMap((test, i) => (span.forms.some(test) ? [i] : [])))
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " }

const decodeEntity = (_entity: string, name: string): string => {
  const lower = name.toLowerCase()
  if (!lower.startsWith("#")) return ENTITIES[lower] ?? " "
  const code = lower.startsWith("#x") ? Number.parseInt(lower.slice(2), 16) : Number.parseInt(lower.slice(1), 10)
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
    ? String.fromCodePoint(code)
    : " "
}

/**
 * The text of a description's HTML: scripts, styles and tags dropped, the common entities
 * decoded ("Black &amp; Decker" → "Black & Decker"), whitespace collapsed. Snippets are cut
 * from it and escaped again, so whatever it holds is shown as text.
 */
export const htmlText = (html: string): string =>
  html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, decodeEntity)
    .replace(/\s+/g, " ")
    .trim()

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
  const spans = wordSpans(title)
  const marked = matchedWords(query, matching, spans).map((words) => words.length > 0)
  return render(title, spans, marked, 0, title.length)
}

/** Words of context a snippet shows before its first matched word. */
const LEAD_WORDS = 4

/**
 * A window of about SNIPPET_WORDS words of a (plain-text) description where the most of the
 * query's words meet (the first such place; a few words of context before its first match),
 * marked as a title is, with "…" where it is cut; its opening when no word matches; null for an
 * empty description.
 */
export const snippet = (description: string, query: string, matching: WordMatching): string | null => {
  const spans = wordSpans(description)
  if (spans.length === 0) return null
  const matched = matchedWords(query, matching, spans)
  const windowAt = (at: number) => Math.max(0, Math.min(at - LEAD_WORDS, spans.length - SNIPPET_WORDS))
  const covered = (start: number) => new Set(matched.slice(start, start + SNIPPET_WORDS).flat()).size
  let start = 0
  let best = 0
  matched.forEach((words, at) => {
    if (words.length === 0) return
    const candidate = windowAt(at)
    const count = covered(candidate)
    if (count > best) {
      start = candidate
      best = count
    }
  })
  const end = Math.min(spans.length, start + SNIPPET_WORDS) - 1
  const from = start === 0 ? 0 : spans[start].start
  const to = end === spans.length - 1 ? description.length : spans[end].end
  const marked = matched.map((words) => words.length > 0)
  return `${start > 0 ? "…" : ""}${render(description, spans, marked, from, to)}${to < description.length ? "…" : ""}`
}

/** The entities with their titles' matched words marked, and on request a description snippet. */
export const highlighted = (
  store: CatalogStore["Type"],
  siteId: number,
  entities: ReadonlyArray<ResultEntity>,
  text: string,
  matching: WordMatching,
  withSnippet: boolean | undefined
) =>
  Effect.gen(function* () {
    const descriptions = withSnippet
      ? new Map(
          (yield* store.getMany(
            siteId,
            entities.flatMap((entity) => (entity.productId === undefined ? [] : [entity.productId]))
          )).map((product) => [product.productId, htmlText(product.data.description ?? "")] as const)
        )
      : new Map<string, string>()
    return entities.map((entity): ResultEntity => {
      if (entity.title === undefined) return entity
      const description = snippet(descriptions.get(entity.productId ?? "") ?? "", text, matching)
      return {
        ...entity,
        highlight: {
          title: highlightTitle(entity.title, text, matching),
          ...(description === null ? {} : { description })
        }
      }
    })
  })
