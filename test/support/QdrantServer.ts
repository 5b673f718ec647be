import { afterAll, beforeAll } from "@effect/vitest"
import { qdrantAvailability, startQdrant, type QdrantServer } from "./QdrantProcess.js"

export { qdrantAvailability, startQdrant, type QdrantServer } from "./QdrantProcess.js"

export interface QdrantSuite {
  readonly url: string
  readonly apiKey: string | undefined
  /** This file's own server (undefined when the suite uses QDRANT_URL). */
  readonly server: QdrantServer | undefined
}

/**
 * One Qdrant for the calling test file (see `qdrantAvailability`); call it at the top of a
 * file whose suites are registered only when `available` (else print `skipReason` and skip).
 */
export const qdrantForThisFile = (): QdrantSuite & {
  readonly available: boolean
  readonly skipReason: string | undefined
  /** The file starts its own server (so a test may stop and restart it). */
  readonly ownsServer: boolean
} => {
  const availability = qdrantAvailability()
  let server: QdrantServer | undefined
  if ("binary" in availability) {
    beforeAll(async () => {
      server = await startQdrant(availability.binary)
    }, 60_000)
    afterAll(async () => {
      await server?.stop()
    })
  }
  const started = () => {
    if ("url" in availability) return { url: availability.url, apiKey: process.env.QDRANT_API_KEY || undefined }
    if (!server) throw new Error("qdrant not started yet: use it inside a test or a hook")
    return server
  }
  return {
    available: !("skip" in availability),
    ownsServer: "binary" in availability,
    skipReason: "skip" in availability ? availability.skip : undefined,
    get url() {
      return started().url
    },
    get apiKey() {
      return started().apiKey
    },
    get server() {
      return server
    }
  }
}
