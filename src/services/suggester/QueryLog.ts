import type Database from "better-sqlite3"

export interface LoggedQuery {
  readonly siteId: number
  readonly query: string
  readonly count: number
  readonly lastSeen: number
}

/**
 * The durable side of the searched-queries log. Searches only touch an in-memory batch;
 * `flush` writes the batch in one transaction, so the search path never waits on the disk.
 * Counts are added on conflict rather than overwritten, so two processes sharing the file
 * (or a batch retried after a failure) never lose each other's searches.
 */
export class QueryLog {
  private batch = new Map<string, { siteId: number; query: string; count: number; lastSeen: number }>()
  private readonly upsert: Database.Statement

  constructor(private readonly db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS suggest_queries (
      site_id INTEGER NOT NULL,
      query TEXT NOT NULL,
      count INTEGER NOT NULL,
      last_seen INTEGER NOT NULL,
      PRIMARY KEY (site_id, query)
    ) WITHOUT ROWID`)
    this.upsert = db.prepare(`INSERT INTO suggest_queries (site_id, query, count, last_seen)
      VALUES (@siteId, @query, @count, @lastSeen)
      ON CONFLICT (site_id, query) DO UPDATE SET
        count = count + excluded.count, last_seen = max(last_seen, excluded.last_seen)`)
  }

  loadAll(): Array<LoggedQuery> {
    return this.db
      .prepare("SELECT site_id AS siteId, query, count, last_seen AS lastSeen FROM suggest_queries")
      .all() as Array<LoggedQuery>
  }

  record(siteId: number, query: string, at: number): void {
    const key = `${siteId}\u0000${query}`
    const pending = this.batch.get(key)
    if (pending === undefined) this.batch.set(key, { siteId, query, count: 1, lastSeen: at })
    else {
      pending.count++
      pending.lastSeen = at
    }
  }

  /** Writes the pending batch; on failure the batch is kept for the next flush. Throws the cause. */
  flush(): void {
    if (this.batch.size === 0) return
    const taken = this.batch
    this.batch = new Map()
    try {
      this.db.transaction(() => {
        for (const row of taken.values()) this.upsert.run(row)
      })()
    } catch (cause) {
      for (const [key, row] of taken) {
        const newer = this.batch.get(key)
        if (newer !== undefined) {
          newer.count += row.count
          newer.lastSeen = Math.max(newer.lastSeen, row.lastSeen)
        } else this.batch.set(key, row)
      }
      throw cause
    }
  }
}
