import type { Scores } from "./Metrics.js"

const f3 = (x: number) => x.toFixed(4)
const signed = (x: number) => (x >= 0 ? "+" : "") + x.toFixed(4)

export const header = (first: string) => `${first.padEnd(54)}  nDCG@10  judged nDCG@10  recall@100  ms/query`

export const row = (label: string, s: Scores, ms: number, baseline?: Scores) =>
  `${label.padEnd(54)}  ${f3(s.ndcg10)}  ${f3(s.judgedNdcg10).padStart(14)}  ` +
  `${f3(s.recall100).padStart(10)}  ${(ms / Math.max(1, s.queries)).toFixed(1).padStart(8)}` +
  (baseline ? `   Δ nDCG@10 vs BM25 ${signed(s.ndcg10 - baseline.ndcg10)}` : "")

export const count = (n: number) => n.toLocaleString("en-US")
