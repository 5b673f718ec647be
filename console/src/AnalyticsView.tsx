import { useEffect, useRef, useState } from "preact/hooks"
import uPlot from "uplot"
import "uplot/dist/uPlot.min.css"
import { call, type Session } from "./api.js"

interface QueryRow {
  readonly query: string
  readonly searches: number
  readonly zeroResults: number
  readonly clicks: number
  readonly clickThroughRate: number | null
  readonly averageClickPosition: number | null
}
interface Report {
  readonly data: {
    readonly from: string
    readonly to: string
    readonly totals: {
      readonly searches: number
      readonly zeroResults: number
      readonly clicks: number
      readonly clickThroughRate: number | null
    }
    readonly topQueries: ReadonlyArray<QueryRow>
    readonly zeroResultQueries: ReadonlyArray<QueryRow>
    readonly noClickQueries: ReadonlyArray<QueryRow>
    readonly days: ReadonlyArray<{ readonly day: string; readonly searches: number; readonly zeroResults: number }>
  }
}

const percent = (rate: number | null) => (rate === null ? "—" : `${(rate * 100).toFixed(1)} %`)

/** Searches and zero-result searches a day, drawn by uPlot (a canvas, ~20 KB compressed). */
const SearchesChart = ({ days }: { readonly days: Report["data"]["days"] }) => {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const width = Math.max(280, box.current!.clientWidth)
    const chart = new uPlot(
      {
        width,
        height: 220,
        series: [
          {},
          { label: "Searches", stroke: "#0b57d0", width: 2 },
          { label: "Found nothing", stroke: "#b3261e", width: 2 }
        ],
        axes: [{}, { label: "a day" }]
      },
      [
        days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
        days.map((d) => d.searches),
        days.map((d) => d.zeroResults)
      ],
      box.current!
    )
    return () => chart.destroy()
  }, [days])
  return <div ref={box} class="chart" role="img" aria-label="Searches a day, and those that found nothing" />
}

const QueryTable = ({ label, rows }: { readonly label: string; readonly rows: ReadonlyArray<QueryRow> }) => (
  <table aria-label={label}>
    <caption>{label}</caption>
    <thead>
      <tr>
        <th scope="col">Query</th>
        <th scope="col">Searches</th>
        <th scope="col">Found nothing</th>
        <th scope="col">Clicks</th>
        <th scope="col">Click-through</th>
        <th scope="col">Avg. position</th>
      </tr>
    </thead>
    <tbody>
      {rows.map((q) => (
        <tr>
          <td>{q.query}</td>
          <td>{q.searches}</td>
          <td>{q.zeroResults}</td>
          <td>{q.clicks}</td>
          <td>{percent(q.clickThroughRate)}</td>
          <td>{q.averageClickPosition?.toFixed(1) ?? "—"}</td>
        </tr>
      ))}
    </tbody>
  </table>
)

/** What shoppers searched over the last 30 days (GET /analytics/searches). */
export const AnalyticsView = ({ session }: { readonly session: Session }) => {
  const [report, setReport] = useState<Report | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    call<Report>(session, "GET", "/analytics/searches?limit=10").then(setReport, (e: Error) => setError(e.message))
  }, [session])
  if (error !== null)
    return (
      <p role="alert" class="error">
        {error}
      </p>
    )
  if (report === null) return <p aria-live="polite">Loading analytics…</p>
  const { totals } = report.data
  return (
    <div class="merchant analytics">
      <h2>
        Search analytics, {report.data.from} to {report.data.to}
      </h2>
      <dl class="totals">
        <div>
          <dt>Searches</dt>
          <dd>{totals.searches}</dd>
        </div>
        <div>
          <dt>Found nothing</dt>
          <dd>{totals.zeroResults}</dd>
        </div>
        <div>
          <dt>Clicks</dt>
          <dd>{totals.clicks}</dd>
        </div>
        <div>
          <dt>Click-through rate</dt>
          <dd>{percent(totals.clickThroughRate)}</dd>
        </div>
      </dl>
      <SearchesChart days={report.data.days} />
      <QueryTable label="Top queries" rows={report.data.topQueries} />
      <QueryTable label="Queries that found nothing" rows={report.data.zeroResultQueries} />
      <QueryTable label="Queries never clicked" rows={report.data.noClickQueries} />
    </div>
  )
}
