import type { Redis } from "ioredis"
import { script } from "../../platform/redis/LuaScript.js"

export interface CountedQuery {
  readonly siteId: number
  readonly query: string
  /** Total searches by every process. */
  readonly count: number
  /** When it was last flushed (Redis clock, epoch ms). */
  readonly lastSeen: number
}

/**
 * Adds one site's batch: counts into a hash (HINCRBY, so concurrent processes and retried
 * batches add up rather than overwrite), and stamps each query in a sorted set with Redis's
 * clock. That stamp is both the query's last-seen time and the cursor of `touchedSince`:
 * process clocks may disagree, Redis's is one.
 */
const ADD_LUA = `
local time = redis.call('TIME')
local now = string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000))
for i = 2, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[2], 'GT', now, ARGV[i])
end
redis.call('SADD', KEYS[3], ARGV[1])
return now
`

const PAGE = 1_000

/** The searched-queries log of the distributed Suggester, shared by every process through Redis. */
export class SharedQueryCounts {
  private readonly addScript: ReturnType<typeof script>
  private readonly sitesKey: string

  constructor(
    private readonly client: Redis,
    private readonly prefix: string
  ) {
    this.addScript = script(client, ADD_LUA)
    this.sitesKey = `${prefix}:sites`
  }

  private keys(siteId: number) {
    return { counts: `${this.prefix}:{${siteId}}:count`, seen: `${this.prefix}:{${siteId}}:seen` }
  }

  async add(siteId: number, counts: ReadonlyMap<string, number>): Promise<void> {
    const { counts: countsKey, seen } = this.keys(siteId)
    await this.addScript([countsKey, seen, this.sitesKey], [siteId, ...[...counts].flat()])
  }

  /** Redis's clock (epoch ms): a `touchedSince` cursor taken before a read misses nothing added after it. */
  async now(): Promise<number> {
    const [seconds, micros] = await this.client.time()
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)
  }

  /** Every query added at or after `since` (0: all of them), with its current total. */
  async touchedSince(since: number): Promise<Array<CountedQuery>> {
    const out: Array<CountedQuery> = []
    for (const site of await this.client.smembers(this.sitesKey)) {
      const siteId = Number(site)
      const { counts, seen } = this.keys(siteId)
      // One read, not pages: an offset shifts when a query earlier in the order is stamped again,
      // skipping one that was not; the reply is small next to the catalog a rebuild reads.
      const stamped = await this.client.zrangebyscore(seen, since, "+inf", "WITHSCORES")
      for (let from = 0; from < stamped.length; from += 2 * PAGE) {
        const page = stamped.slice(from, from + 2 * PAGE)
        const queries = page.filter((_, i) => i % 2 === 0)
        const totals = await this.client.hmget(counts, ...queries)
        queries.forEach((query, i) => {
          out.push({ siteId, query, count: Number(totals[i] ?? 0), lastSeen: Number(page[2 * i + 1]) })
        })
      }
    }
    return out
  }
}
