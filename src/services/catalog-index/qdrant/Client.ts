import { QdrantClient, QdrantClientTimeoutError } from "@qdrant/js-client-rest"
import type { ColumnIndexes } from "./Collection.js"
import type { ResolvedOptions } from "./QdrantOptions.js"
import type { TermReplica } from "./TermReplica.js"

/** What every Qdrant-backed operation needs: the clients, the collection and the knobs. */
export interface Qdrant {
  /** Searches, counts, scrolls and reads: a short timeout, a user is waiting. */
  readonly client: QdrantClient
  /** Upserts, deletes and the collection's setup (creation, index building): a long timeout. */
  readonly writer: QdrantClient
  /** Requests whose body is encoded here already (see `sendJson`): with the client's timeout, and the writer's. */
  readonly sendQuery: SendJson
  readonly sendWrite: SendJson
  readonly collection: string
  readonly options: ResolvedOptions
  readonly columns: ColumnIndexes
  /** The index's words and columns in this process's memory: statistics, variants, lexical vectors (SiteTerms.ts). */
  readonly terms: TermReplica
}

/**
 * A request on the collection (`path` under `/collections/{name}/`, e.g. "points/scroll") whose
 * JSON body the caller encoded; resolves to the answer's `result`.
 */
export type SendJson = (method: "POST" | "PUT", path: string, body: string) => Promise<unknown>

interface Connection {
  readonly url: string
  readonly apiKey?: string | undefined
}

/**
 * Requests with a body encoded by the caller. The client encodes every body with a replacer
 * function (for bigints), which keeps JSON.stringify off its fast path: for a batch of points
 * that costs as much as building them (and their size must be known beforehand anyway: each
 * point is encoded once, measured, and joined), for a search's batch a good part of its CPU. Fails as the client does (an error with the
 * status, its text and Qdrant's answer; QdrantClientTimeoutError after `timeout`), so
 * Request.ts reads both alike.
 */
const sendJson =
  (connection: Connection, collection: string, timeout: number): SendJson =>
  async (method, path, body) => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json",
      "accept-encoding": "identity",
      ...(connection.apiKey !== undefined && { "api-key": connection.apiKey })
    }
    let response: Response
    try {
      response = await fetch(new URL(`/collections/${encodeURIComponent(collection)}/${path}`, connection.url), {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(timeout)
      })
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === "TimeoutError")
        throw new QdrantClientTimeoutError(`Request timed out after ${timeout} ms`)
      throw cause
    }
    const text = await response.text()
    let data: unknown = text
    try {
      data = JSON.parse(text)
    } catch {
      // Not JSON (a proxy's error page): kept as text for the error.
    }
    if (!response.ok)
      throw Object.assign(new Error(response.statusText), {
        status: response.status,
        statusText: response.statusText,
        data
      })
    return (data as { result?: unknown }).result
  }

/** The two clients of `options`: each aborts a request after its own timeout. */
export const clients = (
  connection: Connection,
  options: ResolvedOptions
): Pick<Qdrant, "client" | "writer" | "sendQuery" | "sendWrite"> => {
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
  return {
    client: make(options.queryTimeoutMs),
    writer: make(options.writeTimeoutMs),
    sendQuery: sendJson(connection, options.collection, options.queryTimeoutMs),
    sendWrite: sendJson(connection, options.collection, options.writeTimeoutMs)
  }
}
