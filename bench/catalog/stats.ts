/** Latency samples, percentiles, memory sampling and markdown tables. */
import * as fs from "node:fs"
import { constants, type PerformanceEntry, PerformanceObserver } from "node:perf_hooks"

export interface Summary {
  readonly count: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly max: number
  readonly mean: number
}

/** Nearest-rank percentile of an ascending array. */
const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]

export const summarize = (samples: ReadonlyArray<number>): Summary => {
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length > 0 ? sorted[sorted.length - 1] : NaN,
    mean: sorted.length > 0 ? sorted.reduce((s, x) => s + x, 0) / sorted.length : NaN
  }
}

/** Samples grouped by a label (query kind), plus the overall set. */
export class Samples {
  readonly byKind = new Map<string, Array<number>>()
  readonly all: Array<number> = []
  add(kind: string, ms: number) {
    this.all.push(ms)
    const list = this.byKind.get(kind)
    if (list) list.push(ms)
    else this.byKind.set(kind, [ms])
  }
}

export const ms = (x: number) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x.toFixed(1)) : "-")
export const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`

/**
 * Main-thread garbage-collection pauses while it runs (V8 "gc" performance entries): how much
 * of a latency figure the collector took. Concurrent marking on helper threads is not a pause
 * and is not counted here, though it competes for the cores.
 */
export const gcPauses = () => {
  let total = 0
  let count = 0
  let major = 0
  let longest = 0
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      total += entry.duration
      count++
      longest = Math.max(longest, entry.duration)
      if (
        (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
        constants.NODE_PERFORMANCE_GC_MAJOR
      )
        major++
    }
  })
  observer.observe({ entryTypes: ["gc"] })
  return {
    stop: () => {
      observer.disconnect()
      return { totalMs: total, count, major, longestMs: longest }
    }
  }
}

/** Samples the process RSS every `intervalMs`; keeps the peak. */
/** A process and its descendants (an api and its search replicas), from /proc; gone ones left out. */
const processTree = (pid: number): Array<number> => {
  try {
    const children = fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" "))
      .filter((child) => child.trim() !== "")
      .map(Number)
    return [pid, ...children.flatMap(processTree)]
  } catch {
    return []
  }
}

/** Sums `read` over a process tree; a process gone meanwhile counts 0. */
const overTree = (pid: number, read: (id: number) => number) =>
  processTree(pid).reduce((sum, id) => {
    try {
      return sum + read(id)
    } catch {
      return sum
    }
  }, 0)

/** Resident bytes of a process and its descendants. */
export const processTreeRss = (pid: number): number =>
  overTree(pid, (id) => {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${id}/status`, "utf8"))
    return kb === null ? 0 : Number(kb[1]) * 1024
  })

/** CPU seconds a process and its descendants have used (user and system; clock ticks of 10 ms). */
export const processTreeCpuSeconds = (pid: number): number =>
  overTree(pid, (id) => {
    const stat = fs.readFileSync(`/proc/${id}/stat`, "utf8")
    // utime and stime are fields 14 and 15, counted after the parenthesised command name.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  })

/** Peak RSS of this process, or of another process and its descendants when given its pid. */
export const rssSampler = (intervalMs = 500, pid?: number) => {
  const read = () => (pid === undefined ? process.memoryUsage().rss : processTreeRss(pid))
  let peak = read()
  const timer = setInterval(() => {
    peak = Math.max(peak, read())
  }, intervalMs)
  timer.unref()
  return {
    get peak() {
      return Math.max(peak, read())
    },
    stop: () => clearInterval(timer)
  }
}

export const markdownTable = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n")
}
