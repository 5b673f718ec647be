import * as fs from "node:fs"
import * as path from "node:path"

/** One relevance set as published under /work/shared/data/relevance/<set> (see its README). */
export interface EvalProduct {
  readonly id: string
  readonly title: string
  readonly description?: string | undefined
}

export interface EvalQuery {
  readonly id: string
  readonly text: string
}

/** query id → product id → gain (unjudged products are absent, i.e. gain 0). */
export type Qrels = ReadonlyMap<string, ReadonlyMap<string, number>>

export interface RelevanceSet {
  readonly name: string
  readonly dir: string
  readonly products: ReadonlyArray<EvalProduct>
  readonly queries: ReadonlyArray<EvalQuery>
  readonly qrels: Qrels
  /** Whether the catalog carries descriptions (crowdflower) or titles only (homedepot). */
  readonly hasDescription: boolean
}

const DATA_ROOT = "/work/shared/data/relevance"

/** Accepts a path to a set folder, or a bare set name under the shared data root. */
export const resolveSetDir = (arg: string): string => {
  if (fs.existsSync(path.join(arg, "products.jsonl"))) return path.resolve(arg)
  const named = path.join(DATA_ROOT, arg)
  if (fs.existsSync(path.join(named, "products.jsonl"))) return named
  throw new Error(`no relevance set at ${arg} (expected products.jsonl, queries.dev.tsv, qrels.dev.txt)`)
}

const lines = (file: string) =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim().length > 0)

export const loadRelevanceSet = (dir: string): RelevanceSet => {
  const products = lines(path.join(dir, "products.jsonl")).map((line) => {
    const raw = JSON.parse(line) as { id: string; title?: string; description?: string }
    return { id: String(raw.id), title: raw.title ?? "", description: raw.description }
  })
  const queries = lines(path.join(dir, "queries.dev.tsv")).map((line) => {
    const tab = line.indexOf("\t")
    return { id: line.slice(0, tab), text: line.slice(tab + 1).trim() }
  })
  const qrels = new Map<string, Map<string, number>>()
  for (const line of lines(path.join(dir, "qrels.dev.txt"))) {
    const [queryId, , productId, gain] = line.trim().split(/\s+/)
    let judged = qrels.get(queryId)
    if (judged === undefined) qrels.set(queryId, (judged = new Map()))
    judged.set(productId, Number(gain))
  }
  return {
    name: path.basename(dir),
    dir,
    products,
    queries,
    qrels,
    hasDescription: products.some((p) => typeof p.description === "string" && p.description.length > 0)
  }
}
