import type { EvalProduct, EvalQuery, Qrels } from "./Dataset.js"

/**
 * The joined-token group: queries with a word that some relevant title holds only inside a
 * joined token — hyphenated ("65-Watt", "J-Mold"), a number against its unit ("65W"), a
 * dimension ("32x80") or a decimal ("24.7") — and never on its own. Plain whitespace and
 * punctuation split the title; words are lowercased letters and digits. Fixed by the data
 * alone (not by either system), so both systems are scored on the same queries.
 */
export const joinedTokenQueries = (
  queries: ReadonlyArray<EvalQuery>,
  qrels: Qrels,
  products: ReadonlyArray<EvalProduct>
): Set<string> => {
  const titles = new Map(products.map((p) => [p.id, p.title.toLowerCase()]))
  const words = (text: string): Array<string> => [...(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])]
  const group = new Set<string>()
  for (const query of queries) {
    const relevant = [...(qrels.get(query.id) ?? [])].filter(([, gain]) => gain > 0).map(([id]) => titles.get(id) ?? "")
    const hidden = words(query.text).some((word) =>
      relevant.some((title) => {
        const tokens = title.split(/[\s,;:()"]+/).filter((t) => t.length > 0)
        const alone = tokens.some((token) => token.replace(/[.]+$/, "") === word)
        const inside = tokens.some(
          (token) =>
            token !== word &&
            words(token.replace(/(\d)(?=[a-z])|([a-z])(?=\d)|(\d)x(?=\d)/g, "$1$2$3 ")).includes(word) &&
            /[-.\dx]/.test(token)
        )
        return inside && !alone
      })
    )
    if (hidden) group.add(query.id)
  }
  return group
}

/** The rankings of the queries in (or out of) a group. */
export const rankingsOf = <A>(
  rankings: ReadonlyMap<string, A>,
  group: ReadonlySet<string>,
  inGroup: boolean
): Map<string, A> => new Map([...rankings].filter(([id]) => group.has(id) === inGroup))
