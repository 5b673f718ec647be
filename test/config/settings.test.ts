import { type Config, ConfigProvider, Context, Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { Schema } from "effect"
import { SitesFile } from "../../src/domain/Site.js"
import { Campaign } from "../../src/domain/Site.js"
import { ServerConfig } from "../../src/http/ServerConfig.js"
import { DEFAULT_HEAP_GROWING_PERCENT } from "../../src/platform/HeapTuning.js"
import { DataDir } from "../../src/platform/Sqlite.js"
import { ImageIntakeConfig } from "../../src/services/image-intake/ImageIntakeConfig.js"
import { SitesFilePath } from "../../src/services/site-registry/SitesStore.js"
import { TopologyConfig } from "../../src/topology/Topology.js"
import { QdrantTuning } from "../../src/services/catalog-index/qdrant/QdrantOptions.js"
import { McpRateLimit } from "../../src/mcp/McpRoute.js"
import { LegacySessionTtlSeconds } from "../../src/search/LegacySessions.js"
import { ImageModelSettings } from "../../src/services/image-analyzer/EmbeddedImageAnalyzer.js"
import { LaneConcurrency, WorkerQueues, WorkerTimings } from "../../src/services/job-queue/BullMqWorker.js"
import { LANES } from "../../src/model/Jobs.js"
import { SessionStoreMaxBytes } from "../../src/services/session-store/EmbeddedSessionStore.js"
import { EmbedThreads } from "../../src/services/text-embedder/EmbeddedTextEmbedder.js"
import { repoRoot } from "../support/EntryPoint.js"

// config/ is what a deployment edits: the settings with their defaults and example registry
// files. These tests keep them true to the code.

const settingsFile = (): Map<string, string> =>
  new Map(
    fs
      .readFileSync(path.join(repoRoot, "config/settings.env"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("#"))
      .map((line) => {
        const eq = line.indexOf("=")
        return [line.slice(0, eq), line.slice(eq + 1)] as const
      })
  )

const sourceFiles = (dir: string): Array<string> =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? sourceFiles(path.join(dir, entry.name))
        : entry.name.endsWith(".ts")
          ? [path.join(dir, entry.name)]
          : []
    )

/**
 * Every setting name the code reads: the name in a `Config.*("NAME")` call, and every other
 * quoted UPPER_SNAKE literal in src/ (names kept in constants).
 */
const namesInCode = () =>
  new Set(
    sourceFiles(path.join(repoRoot, "src")).flatMap((file) => {
      const code = fs.readFileSync(file, "utf8")
      return [
        ...code.matchAll(/Config\.[a-zA-Z]+(?:\([^()]*\))?\(\s*(?:Config\.string\(\),\s*)?"([A-Z][A-Z0-9_]*)"/g),
        ...code.matchAll(/"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"/g)
      ].map((m) => m[1])
    })
  )

/** A value read with the file's lines as the whole environment, and with an empty one. */
const both = <A>(read: Effect.Effect<A, unknown>) => {
  const withFile = ConfigProvider.fromMap(new Map([...settingsFile()].filter(([, value]) => value !== "")))
  const withNothing = ConfigProvider.fromMap(new Map())
  return Effect.runPromise(
    Effect.all([Effect.withConfigProvider(read, withFile), Effect.withConfigProvider(read, withNothing)])
  )
}
const config = <A>(c: Config.Config<A>) => both(c)

describe("config/settings.env", () => {
  it("lists every setting the code reads, and nothing else", () => {
    const listed = [...settingsFile().keys()]
    const lanes = settingsFile().get("WORKER_QUEUES")!.split(",")
    // Per-queue concurrency names are built from the lane names (BullMqWorker).
    const perLane = lanes.map((lane) => `${lane.toUpperCase()}_CONCURRENCY`)
    const expected = new Set([...namesInCode(), ...perLane])
    expect(listed.filter((name) => !expected.has(name))).toEqual([])
    expect([...expected].filter((name) => !listed.includes(name))).toEqual([])
  })

  it("gives each setting the default the code has", async () => {
    const every: ReadonlyArray<Config.Config<unknown>> = [
      ServerConfig,
      TopologyConfig,
      QdrantTuning,
      DataDir,
      SitesFilePath,
      McpRateLimit,
      LegacySessionTtlSeconds,
      SessionStoreMaxBytes,
      EmbedThreads,
      ImageModelSettings,
      WorkerQueues,
      WorkerTimings,
      ...LANES.map(LaneConcurrency)
    ]
    for (const c of every) {
      const [fromFile, defaults] = await config(c)
      expect(fromFile).toEqual(defaults)
    }
    const intake = Effect.map(Layer.build(ImageIntakeConfig.fromEnv).pipe(Effect.scoped), (ctx) =>
      Context.get(ctx, ImageIntakeConfig)
    )
    const [fromFile, defaults] = await both(intake)
    expect(fromFile).toEqual(defaults)
    expect(Number(settingsFile().get("HEAP_GROWING_PERCENT"))).toBe(DEFAULT_HEAP_GROWING_PERCENT)
  })
})

describe("example registry files", () => {
  it("config/sites.example.json is a valid registry with a campaign of every kind of rule", () => {
    const file = Schema.decodeUnknownSync(SitesFile)(
      JSON.parse(fs.readFileSync(path.join(repoRoot, "config/sites.example.json"), "utf8"))
    )
    const campaign = file.sites[0].campaigns.find((c) => c.id !== file.sites[0].defaultCampaign)!
    expect(Object.keys(campaign).sort()).toEqual([
      "boosts",
      "crossSell",
      "id",
      "name",
      "pins",
      "popularityBoost",
      "redirects",
      "resultsCount",
      "staticFilters"
    ])
  })

  it("config/campaign.example.json: the example registry's campaign, ready for `npm run site -- set-campaign`", () => {
    const campaign = Schema.decodeUnknownSync(Campaign)(
      JSON.parse(fs.readFileSync(path.join(repoRoot, "config/campaign.example.json"), "utf8"))
    )
    const registry = JSON.parse(fs.readFileSync(path.join(repoRoot, "config/sites.example.json"), "utf8"))
    expect(registry.sites[0].campaigns).toContainEqual(
      JSON.parse(fs.readFileSync(path.join(repoRoot, "config/campaign.example.json"), "utf8"))
    )
    expect(campaign.resultsCount).toBeGreaterThan(0)
  })
})
