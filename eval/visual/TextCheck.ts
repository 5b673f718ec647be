import { Effect } from "effect"
import { visualAttributes } from "../../src/model/ProductDocument.js"
import { textSearch } from "../../src/search/TextSearch.js"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import { label, productIdOf, type FineClass } from "./Dataset.js"
import { rankStats, type Judged } from "./Metrics.js"

/** Colours the analyser can name (src/model/ColorNames.ts), for the wrong-colour control. */
const PALETTE = [
  "black",
  "white",
  "grey",
  "silver",
  "red",
  "dark red",
  "pink",
  "orange",
  "yellow",
  "beige",
  "brown",
  "gold",
  "green",
  "olive",
  "light green",
  "turquoise",
  "blue",
  "navy",
  "light blue",
  "purple"
] as const

const words = (s: string) =>
  new Set(
    s
      .toLowerCase()
      .normalize("NFKD")
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 0)
  )

export interface TextCheckCase {
  readonly productId: string
  readonly classWord: string
  /** A colour the product's photos show (as indexed) and its own text never says. */
  readonly color: string
  /** A palette colour neither its photos nor its text have. */
  readonly wrongColor: string
  /** How many products share the coarse class (the class word alone cannot tell them apart). */
  readonly siblings: number
}

/**
 * Text-over-visual check: for each product, a query of an image colour that is NOT in the
 * product's own text + its coarse class word, through textSearch (POST /text-search). Only
 * the colour words derived from the photos (indexed in the `extra` text field) can connect
 * the colour to the product. Controls: the class word alone, and the class word with a colour
 * the product's photos do not show.
 */
export const buildCases = (siteId: number, classes: ReadonlyArray<FineClass>) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const siblings = new Map<number, number>()
    for (const c of classes) siblings.set(c.coarseId, (siblings.get(c.coarseId) ?? 0) + 1)
    const cases: Array<TextCheckCase> = []
    let noColor = 0,
      onlyTextColors = 0
    for (const c of classes) {
      const productId = productIdOf(c)
      const analyses = yield* store.imageAnalyses(siteId, productId)
      const product = yield* store.get(siteId, productId)
      const images = product._tag === "Some" ? product.value.images : []
      // The iconic photo first (images[0]), then the others, in the order the record lists them.
      const ordered = [...analyses].sort(
        (a, b) => images.findIndex((i) => i.id === a.imageId) - images.findIndex((i) => i.id === b.imageId)
      )
      const indexed = new Set(visualAttributes(ordered).colors)
      const candidates = ordered.flatMap((a) => a.colors.map((col) => col.name)).filter((n) => indexed.has(n))
      const text = words([c.title, c.description, c.categoryPath].join(" "))
      const unsaid = (name: string) => [...words(name)].every((w) => !text.has(w))
      if (candidates.length === 0) {
        noColor++
        continue
      }
      const color = candidates.find(unsaid)
      if (color === undefined) {
        onlyTextColors++
        continue
      }
      const wrongColor = PALETTE.find(
        (name) =>
          !indexed.has(name) &&
          unsaid(name) &&
          [...words(name)].every((w) => ![...indexed].some((i) => words(i).has(w)))
      )
      cases.push({
        productId,
        classWord: label(c.coarseName).toLowerCase(),
        color,
        wrongColor: wrongColor ?? "purple",
        siblings: siblings.get(c.coarseId) ?? 1
      })
    }
    return { cases, noColor, onlyTextColors }
  })

export const runTextCheck = (siteId: number, cases: ReadonlyArray<TextCheckCase>) =>
  Effect.gen(function* () {
    const search = (query: string) =>
      Effect.map(textSearch(siteId, { query, resultsCount: 10 }).pipe(Effect.orDie), (r) =>
        r.data.products.flatMap((p) => (p.productId === undefined ? [] : [p.productId]))
      )
    const withColor: Array<Judged & { readonly siblings: number }> = []
    const classOnly: Array<Judged & { readonly siblings: number }> = []
    const wrongColor: Array<Judged & { readonly siblings: number }> = []
    const colorOnly: Array<Judged & { readonly siblings: number }> = []
    const examples: Array<string> = []
    for (const c of cases) {
      const ranking = yield* search(`${c.color} ${c.classWord}`)
      withColor.push({ expected: c.productId, ranking, siblings: c.siblings })
      classOnly.push({ expected: c.productId, ranking: yield* search(c.classWord), siblings: c.siblings })
      wrongColor.push({
        expected: c.productId,
        ranking: yield* search(`${c.wrongColor} ${c.classWord}`),
        siblings: c.siblings
      })
      colorOnly.push({ expected: c.productId, ranking: yield* search(c.color), siblings: c.siblings })
      if (c.siblings > 1 && examples.length < 6)
        examples.push(
          `"${c.color} ${c.classWord}" → ${c.productId} at rank ${ranking.indexOf(c.productId) + 1 || ">10"}`
        )
    }
    const stats = (runs: ReadonlyArray<Judged & { readonly siblings: number }>, minSiblings: number) =>
      rankStats(runs.filter((r) => r.siblings >= minSiblings))
    return {
      rows: [
        { label: "image colour + class word", all: stats(withColor, 1), shared: stats(withColor, 2) },
        { label: "control: class word only", all: stats(classOnly, 1), shared: stats(classOnly, 2) },
        { label: "control: absent colour + class word", all: stats(wrongColor, 1), shared: stats(wrongColor, 2) },
        { label: "image colour alone", all: stats(colorOnly, 1), shared: stats(colorOnly, 2) }
      ],
      examples
    }
  })
