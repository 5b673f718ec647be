import { afterAll, beforeAll } from "@effect/vitest"
import type { Layer } from "effect"
import { Redis } from "ioredis"
import { flushedRedis, type RedisServer, startRedis, type StartRedisOptions } from "./RedisServer.js"

export interface RedisSuite {
  /** redis://127.0.0.1:<port> of this file's server. */
  readonly url: string
  readonly server: RedisServer
  /** Empties the server when built: provide it beneath a layer under test so each test starts clean. */
  readonly flushed: Layer.Layer<never>
  /** A plain client on the server, to look behind a service's back; closed after the file. */
  readonly client: () => Redis
  /** Stops the server (it writes its AOF) and starts it again on the same port and data dir. */
  readonly restart: () => Promise<void>
}

/**
 * One real redis-server for the calling test file, on its own port with the production
 * settings: started before the file's tests, stopped after them. Call it once at the top of
 * a Redis suite; read `url` etc. inside tests (the server exists only once beforeAll ran).
 */
export const redisForThisFile = (options: StartRedisOptions = {}): RedisSuite => {
  let server: RedisServer | undefined
  let client: Redis | undefined
  beforeAll(async () => {
    server = await startRedis(options)
  })
  afterAll(async () => {
    await client?.quit()
    await server?.stop()
  })
  const started = () => {
    if (!server) throw new Error("redis-server not started yet: use it inside a test or a hook")
    return server
  }
  return {
    get url() {
      return started().url
    },
    get server() {
      return started()
    },
    flushed: flushedRedis(started),
    client: () => (client ??= new Redis(started().url)),
    restart: () => started().restart()
  }
}
