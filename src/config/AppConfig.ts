import { Config, Context, Effect, Layer } from "effect"
import * as path from "node:path"

/** Process-wide settings, read once from the environment (see README "Configuration"). */
export interface AppConfigShape {
  readonly host: string
  readonly port: number
  /** Where the embedded backends keep their files. */
  readonly dataDir: string
  /** The site registry (credentials, campaigns). */
  readonly sitesFile: string
  /** Largest accepted request body, in bytes. */
  readonly maxBodyBytes: number
  /** Worker threads used for text embedding in the api process. */
  readonly embedThreads: number
  /** MCP requests allowed per site credential per window. */
  readonly mcpRateLimit: number
  readonly mcpRateWindowMs: number
  /**
   * Set: the distributed topology — records, queues, sessions, memory and rate limits in this
   * Redis, indexing in worker processes (`npm run worker`). Unset: everything embedded.
   */
  readonly redisUrl: string | undefined
  /** Set: the index lives in this Qdrant; unset: an in-memory index (a replica fed through Redis when REDIS_URL is set). */
  readonly qdrantUrl: string | undefined
  readonly qdrantApiKey: string | undefined
  readonly qdrantCollection: string
}

const optionalString = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map((value) => (value._tag === "Some" && value.value.trim() !== "" ? value.value.trim() : undefined))
  )

export class AppConfig extends Context.Tag("AppConfig")<AppConfig, AppConfigShape>() {
  static readonly fromEnv = Layer.effect(
    AppConfig,
    Effect.gen(function*() {
      const dataDir = yield* Config.string("DATA_DIR").pipe(Config.withDefault("./data"))
      return {
        host: yield* Config.string("HOST").pipe(Config.withDefault("0.0.0.0")),
        port: yield* Config.integer("PORT").pipe(Config.withDefault(8080)),
        dataDir: path.resolve(dataDir),
        sitesFile: path.resolve(yield* Config.string("SITES_FILE").pipe(Config.withDefault("./config/sites.json"))),
        maxBodyBytes: yield* Config.integer("MAX_BODY_BYTES").pipe(Config.withDefault(10 * 1024 * 1024)),
        embedThreads: yield* Config.integer("EMBED_THREADS").pipe(Config.withDefault(2)),
        mcpRateLimit: yield* Config.integer("MCP_RATE_LIMIT").pipe(Config.withDefault(600)),
        mcpRateWindowMs: yield* Config.integer("MCP_RATE_WINDOW_MS").pipe(Config.withDefault(60_000)),
        redisUrl: yield* optionalString("REDIS_URL"),
        qdrantUrl: yield* optionalString("QDRANT_URL"),
        qdrantApiKey: yield* optionalString("QDRANT_API_KEY"),
        qdrantCollection: yield* Config.string("QDRANT_COLLECTION").pipe(Config.withDefault("catalog"))
      }
    })
  )

  static readonly make = (overrides: Partial<AppConfigShape> & Pick<AppConfigShape, "dataDir" | "sitesFile">) =>
    Layer.succeed(AppConfig, {
      host: "127.0.0.1",
      port: 0,
      maxBodyBytes: 10 * 1024 * 1024,
      embedThreads: 1,
      mcpRateLimit: 600,
      mcpRateWindowMs: 60_000,
      redisUrl: undefined,
      qdrantUrl: undefined,
      qdrantApiKey: undefined,
      qdrantCollection: "catalog",
      ...overrides
    })
}
