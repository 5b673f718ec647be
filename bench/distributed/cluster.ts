/**
 * The distributed topology as separate OS processes, as ops run it: a real redis-server on its
 * own port, optionally a Qdrant for the index (a `qdrant` binary started on ports and storage of
 * its own, or a running server at a URL, in a collection of the run's own), the api
 * (`node dist/src/main.js` with REDIS_URL [and QDRANT_URL], as `npm start` runs it) and worker
 * processes (`node dist/src/worker.js`, the same environment) started and stopped on demand.
 * Everything is cleaned up by `close()`, and also when the bench is interrupted (SIGINT/SIGTERM)
 * or exits on an error.
 */
import { Queue } from "bullmq"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type Lane, LANES } from "../../src/model/Jobs.js"
import { DEFAULT_QUEUE_NAME, laneQueueName } from "../../src/services/job-queue/BullMqSettings.js"
import { type QdrantServer, startQdrant } from "../../test/support/QdrantProcess.js"
import { type RedisServer, startRedis } from "../../test/support/RedisServer.js"
import { type ServerProcess, startServerProcess } from "../../test/support/ServerProcess.js"
import { writeSites } from "../../test/support/Workspace.js"
import { startWorkerProcess, type WorkerProcess } from "../../test/support/WorkerProcess.js"
import { log } from "../catalog/common.js"

export type LaneCounts = Record<Lane, { readonly pending: number; readonly failed: number }>

export interface CpuSnapshot {
  readonly api: number
  readonly redis: number
  /** 0 without a Qdrant process of the bench's own. */
  readonly qdrant: number
  readonly workers: number
  readonly bench: number
}

/** Resident memory (bytes) of each process of the cluster; undefined where the bench has no such process. */
export interface RssSnapshot {
  readonly api: number | undefined
  readonly redis: number | undefined
  readonly qdrant: number | undefined
  readonly workers: ReadonlyArray<number>
}

/** Where the index lives: a Qdrant binary the cluster starts, or a running server. */
export type QdrantTarget = { readonly binary: string } | { readonly url: string; readonly apiKey: string | undefined }

/** Linux: utime + stime of a process from /proc (clock ticks of 1/100 s); 0 once it is gone. */
const cpuSecondsOf = (pid: number | undefined): number => {
  if (pid === undefined) return 0
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    // fields[0] is field 3 (state): utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** Linux: VmRSS of a process from /proc, in bytes; undefined once it is gone. */
const rssOf = (pid: number | undefined): number | undefined => {
  if (pid === undefined) return undefined
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}

export const cpuDelta = (from: CpuSnapshot, to: CpuSnapshot): CpuSnapshot => ({
  api: to.api - from.api,
  redis: to.redis - from.redis,
  qdrant: to.qdrant - from.qdrant,
  workers: to.workers - from.workers,
  bench: to.bench - from.bench
})

export interface Cluster {
  readonly baseUrl: string
  /**
   * What the api and the workers are configured with (REDIS_URL, QDRANT_URL, …): the bench
   * process builds the same services from it.
   */
  readonly env: Readonly<Record<string, string>>
  /** The bench's site. */
  readonly siteId: number
  /** The Qdrant the index lives in, if any; `storageDir` only when the cluster runs it. */
  readonly qdrant:
    | {
        readonly url: string
        readonly collection: string
        readonly storageDir: string | undefined
        /** The collection's status: "green" once its optimizers are idle, "yellow" while they work. */
        readonly status: () => Promise<string>
        /**
         * Sets the collection's indexing threshold (0: no vector index is built; Qdrant's advice
         * for bulk loads) and answers the one it had.
         */
        readonly indexing: (threshold: number | null) => Promise<number | null>
      }
    | undefined
  /** Site credentials (full access) and a read-only token of the bench's site. */
  readonly basic: string
  readonly bearer: string
  readonly api: ServerProcess
  /** Starts `count` worker processes and waits until each serves its queues. */
  readonly startWorkers: (count: number, env?: Record<string, string>) => Promise<ReadonlyArray<WorkerProcess>>
  /** SIGTERM to every running worker (they finish their active jobs), SIGKILL after a grace period. */
  readonly stopWorkers: () => Promise<void>
  /** Global BullMQ pause of every lane: workers take no new jobs, enqueues still land. */
  readonly pause: () => Promise<void>
  readonly resume: () => Promise<void>
  /** Per lane: jobs not finished (waiting or paused, prioritized, active, delayed) and failed ones. */
  readonly counts: () => Promise<LaneCounts>
  /** CPU seconds (user + system) used so far by the api, redis-server, Qdrant, the running workers and this process. */
  readonly cpu: () => CpuSnapshot
  readonly rss: () => RssSnapshot
  readonly close: () => Promise<void>
}

const killQuietly = (pid: number | undefined) => {
  if (pid === undefined) return
  try {
    process.kill(pid, "SIGKILL")
  } catch {
    // already gone
  }
}

const stopChild = async (
  child: { readonly child: import("node:child_process").ChildProcess; readonly exited: Promise<unknown> },
  graceMs: number
) => {
  if (child.child.exitCode !== null || child.child.signalCode !== null) return
  child.child.kill("SIGTERM")
  const timer = setTimeout(() => child.child.kill("SIGKILL"), graceMs)
  await child.exited
  clearTimeout(timer)
}

/** How long a worker may take to fill its replicas from a large catalog before it serves. */
const WORKER_START_TIMEOUT_MS = 15 * 60_000

export const startCluster = async (
  options: {
    readonly apiEnv?: Record<string, string>
    readonly workerEnv?: Record<string, string>
    readonly qdrant?: QdrantTarget
  } = {}
): Promise<Cluster> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-bench-distributed-"))
  const pidFile = path.join(dir, "redis.pid")
  const workers: Array<WorkerProcess> = []
  let api: ServerProcess | undefined
  let redis: RedisServer | undefined
  let qdrantServer: QdrantServer | undefined
  // A server the bench does not own gets a collection of this run's own, deleted at the end.
  const external = options.qdrant !== undefined && "url" in options.qdrant ? options.qdrant : undefined
  const collection = external ? `bench_${process.pid}_${Date.now()}` : "catalog"
  let queues: Record<Lane, Queue> | undefined
  let closed = false

  // Last resort on any exit (an uncaught error, process.exit while closing): nothing of ours may
  // outlive the bench, processes or files.
  const killAll = () => {
    for (const w of workers) killQuietly(w.child.pid)
    killQuietly(api?.child.pid)
    killQuietly(qdrantServer?.pid())
    try {
      killQuietly(Number(fs.readFileSync(pidFile, "utf8").trim()))
    } catch {
      // no pid file: redis never started
    }
    fs.rmSync(dir, { recursive: true, force: true })
    if (redis) fs.rmSync(redis.dir, { recursive: true, force: true })
    if (qdrantServer) fs.rmSync(path.dirname(qdrantServer.storageDir), { recursive: true, force: true })
  }
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping the bench's processes`)
    close().finally(() => process.exit(130))
  }
  process.once("exit", killAll)
  process.once("SIGINT", onSignal)
  process.once("SIGTERM", onSignal)

  const close = async () => {
    if (closed) return
    closed = true
    process.removeListener("SIGINT", onSignal)
    process.removeListener("SIGTERM", onSignal)
    await Promise.all(workers.splice(0).map((w) => stopChild(w, 5_000))).catch(() => {})
    if (queues) await Promise.all(Object.values(queues).map((q) => q.close())).catch(() => {})
    if (api) await stopChild(api, 5_000).catch(() => {})
    await redis?.stop().catch(() => {})
    await qdrantServer?.stop().catch(() => {})
    if (external) {
      await fetch(`${external.url}/collections/${collection}`, {
        method: "DELETE",
        headers: external.apiKey ? { "api-key": external.apiKey } : {}
      }).catch((e) => log(`deleting the bench's collection ${collection} failed: ${e}`))
    }
    killAll()
    process.removeListener("exit", killAll)
  }

  try {
    // The production settings (AOF everysec, noeviction); the pid file lets the exit hook kill it.
    redis = await startRedis({ extraArgs: ["--pidfile", pidFile] })
    const sitesFile = path.join(dir, "sites.json")
    const sites = await writeSites(sitesFile)
    if (options.qdrant && "binary" in options.qdrant) qdrantServer = await startQdrant(options.qdrant.binary)
    const qdrantUrl = qdrantServer?.url ?? external?.url
    const env: Record<string, string> = {
      REDIS_URL: redis.url,
      DATA_DIR: path.join(dir, "data"),
      SITES_FILE: sitesFile,
      // Empty is unset: a QDRANT_URL in the bench's own environment must not reach a Redis-only cluster.
      ...(qdrantUrl === undefined ? { QDRANT_URL: "" } : { QDRANT_URL: qdrantUrl, QDRANT_COLLECTION: collection }),
      ...(external?.apiKey ? { QDRANT_API_KEY: external.apiKey } : {})
    }
    queues = Object.fromEntries(
      LANES.map((lane) => {
        const queue = new Queue(laneQueueName(DEFAULT_QUEUE_NAME, lane), { connection: { url: redis!.url } })
        queue.on("error", () => {})
        return [lane, queue] as const
      })
    ) as Record<Lane, Queue>
    // Paused before the api can enqueue: no job runs until a measurement resumes the queues.
    await Promise.all(Object.values(queues).map((q) => q.pause()))
    // The api's own embedder only embeds search queries here: one thread, like the workers'.
    api = await startServerProcess({
      ...env,
      EMBED_THREADS: "1",
      IMAGE_ALLOWED_CIDRS: "127.0.0.0/8",
      ...options.apiEnv
    })
    log(
      `redis ${redis.url}, ` +
        `${
          qdrantUrl === undefined
            ? ""
            : `qdrant ${qdrantUrl} (collection ${collection}` +
              `${qdrantServer ? `, pid ${qdrantServer.pid()}` : ", not the bench's own"}), `
        }` +
        `api ${api.baseUrl} (pid ${api.child.pid}), data in ${dir}`
    )
    const q = queues
    const redisPid = () => {
      try {
        return Number(fs.readFileSync(pidFile, "utf8").trim())
      } catch {
        return undefined
      }
    }
    return {
      baseUrl: api.baseUrl,
      env,
      siteId: sites.siteA.site.id,
      qdrant:
        qdrantUrl === undefined
          ? undefined
          : {
              url: qdrantUrl,
              collection,
              storageDir: qdrantServer?.storageDir,
              status: async () => {
                const res = await fetch(`${qdrantUrl}/collections/${collection}`, {
                  headers: external?.apiKey ? { "api-key": external.apiKey } : {}
                })
                return ((await res.json()) as { result?: { status?: string } }).result?.status ?? `HTTP ${res.status}`
              },
              indexing: async (on) => {
                const headers = {
                  "content-type": "application/json",
                  ...(external?.apiKey ? { "api-key": external.apiKey } : {})
                }
                const info = (await (await fetch(`${qdrantUrl}/collections/${collection}`, { headers })).json()) as {
                  result: { config: { optimizer_config: { indexing_threshold?: number | null } } }
                }
                const before = info.result.config.optimizer_config.indexing_threshold ?? null
                const res = await fetch(`${qdrantUrl}/collections/${collection}`, {
                  method: "PATCH",
                  headers,
                  body: JSON.stringify({ optimizers_config: { indexing_threshold: on } })
                })
                if (!res.ok)
                  throw new Error(`setting Qdrant's indexing threshold: HTTP ${res.status} ${await res.text()}`)
                return before
              }
            },
      basic: sites.siteA.basic,
      bearer: sites.siteA.bearer,
      api,
      startWorkers: async (count, extra = {}) => {
        const started = await Promise.all(
          Array.from({ length: count }, () =>
            startWorkerProcess({ ...env, ...options.workerEnv, ...extra }, WORKER_START_TIMEOUT_MS)
          )
        )
        workers.push(...started)
        log(`${count} worker process(es) serving (pids ${started.map((w) => w.child.pid).join(", ")})`)
        return started
      },
      stopWorkers: async () => {
        await Promise.all(workers.splice(0).map((w) => stopChild(w, 15_000)))
      },
      pause: async () => {
        await Promise.all(Object.values(q).map((queue) => queue.pause()))
      },
      resume: async () => {
        await Promise.all(Object.values(q).map((queue) => queue.resume()))
      },
      counts: async () => {
        const entries = await Promise.all(
          LANES.map(async (lane) => {
            // "paused" (the wait list while the queue is paused) is counted by BullMQ's script but
            // missing from its JobType.
            const c = await q[lane].getJobCounts(
              "waiting",
              "paused" as "waiting",
              "prioritized",
              "active",
              "delayed",
              "waiting-children",
              "failed"
            )
            const pending = c.waiting + (c.paused ?? 0) + c.prioritized + c.active + c.delayed + c["waiting-children"]
            return [lane, { pending, failed: c.failed }] as const
          })
        )
        return Object.fromEntries(entries) as LaneCounts
      },
      cpu: () => {
        const own = process.cpuUsage()
        return {
          api: cpuSecondsOf(api?.child.pid),
          redis: cpuSecondsOf(redisPid()),
          qdrant: cpuSecondsOf(qdrantServer?.pid()),
          workers: workers.reduce((sum, w) => sum + cpuSecondsOf(w.child.pid), 0),
          bench: (own.user + own.system) / 1e6
        }
      },
      rss: () => ({
        api: rssOf(api?.child.pid),
        redis: rssOf(redisPid()),
        qdrant: rssOf(qdrantServer?.pid()),
        workers: workers.flatMap((w) => rssOf(w.child.pid) ?? [])
      }),
      close
    }
  } catch (e) {
    await close()
    throw e
  }
}
