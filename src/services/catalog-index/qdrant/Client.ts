import { QdrantClient } from "@qdrant/js-client-rest"
import type { ColumnIndexes } from "./Collection.js"
import type { ResolvedOptions } from "./QdrantOptions.js"
import type { StatisticsCache } from "./StatisticsCache.js"
import type { TermReplica } from "./TermReplica.js"

/** What every Qdrant-backed operation needs: the clients, the collection and the knobs. */
export interface Qdrant {
  /** Searches, counts, scrolls and reads: a short timeout, a user is waiting. */
  readonly client: QdrantClient
  /** Upserts, deletes and the collection's setup (creation, index building): a long timeout. */
  readonly writer: QdrantClient
  readonly collection: string
  readonly options: ResolvedOptions
  readonly columns: ColumnIndexes
  readonly statistics: StatisticsCache
  /** Recent result sets' member ids (a few dozen sets): a common query's second round, remembered. */
  readonly members: StatisticsCache
  /** The index's words and columns in this process's memory: statistics, variants, lexical vectors (SiteTerms.ts). */
  readonly terms: TermReplica
}

/** The two clients of `options`: each aborts a request after its own timeout. */
export const clients = (
  connection: { readonly url: string; readonly apiKey?: string | undefined },
  options: ResolvedOptions
): Pick<Qdrant, "client" | "writer"> => {
  const make = (timeout: number) =>
    new QdrantClient({
      url: connection.url,
      ...(connection.apiKey !== undefined && { apiKey: connection.apiKey }),
      timeout,
      // Uncompressed answers: fetch asks for gzip by default, and Qdrant streams a compressed
      // answer in pieces that, on a kept-alive connection, often stall until the delayed-ACK
      // timer fires (the request itself leaves in one write, TCP_NODELAY set). Answers are tens
      // of KB: a few more bytes on the wire cost far less than one stall.
      headers: { "accept-encoding": "identity" },
      // The client's own check only logs; a mismatch shows up as request errors instead.
      checkCompatibility: false
    })
  return { client: make(options.queryTimeoutMs), writer: make(options.writeTimeoutMs) }
}
