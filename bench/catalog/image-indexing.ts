/**
 * The image-indexing part of `npm run bench`: N products, one distinct photo each, are pushed
 * through PUT /product with image URLs on a loopback host, and the store is watched until every
 * image has its first-pass analysis (features, adult score, colours: visually searchable) and
 * then its objects (the detection pass). Everything runs in the api's in-process worker, whose
 * image models have IMAGE_THREADS threads.
 * Besides wall-clock rates, which depend on whatever else shares the machine, it reports
 * images per CPU-second of this process (all its threads: models, decoding, text indexing of
 * the pushed products, HTTP, and the image host): the rate one fully used core sustains.
 */
import { Effect } from "effect"
import * as os from "node:os"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import { check, fmtRate, log, pendingJobs, type SectionReport, sleep } from "./common.js"
import { makeCatalog } from "./generator.js"
import type { Client } from "./http.js"
import { type EncodedImage, startImageHost, syntheticImages } from "./images.js"
import { mulberry32 } from "./random.js"
import type { InProcessApi } from "../../test/support/InProcessApi.js"

export interface ImageIndexingOptions {
  readonly seed: number
  readonly products: number
  /** The api's IMAGE_THREADS. */
  readonly imageThreads: number
}

const TIMEOUT_MS = 30 * 60_000

export const runImageIndexingSection = async (
  server: InProcessApi,
  client: Client,
  options: ImageIndexingOptions
): Promise<SectionReport> => {
  const n = options.products
  const photos = await syntheticImages(mulberry32(options.seed).fork(60), n)
  const names = photos.map((photo, i) => `photo-${i}.${photo.format === "png" ? "png" : "jpg"}`)
  const host = await startImageHost(new Map(names.map((name, i): [string, EncodedImage] => [name, photos[i]])))
  const records = [...makeCatalog(options.seed + 1).generate(n)].map((g) => g.product.data)
  const ids = names.map((_, i) => `img-${String(i).padStart(6, "0")}`)
  log(
    `image indexing: ` +
      `${n} products, ` +
      `one photo each (${(photos.reduce((s, p) => s + p.bytes.length, 0) / n / 1024).toFixed(0)} KB ` +
      `average), IMAGE_THREADS=${options.imageThreads}`
  )

  const progress = () =>
    server.run(
      Effect.gen(function* () {
        const store = yield* CatalogStore
        let analysed = 0
        let failed = 0
        let detected = 0
        for (const id of ids) {
          for (const a of yield* store.imageAnalyses(server.siteA.site.id, id)) {
            analysed++
            if (a.status === "failed") failed++
            if (a.objects !== null) detected++
          }
        }
        return { analysed, failed, detected }
      })
    )

  const cpuSeconds = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since)
    return (used.user + used.system) / 1e6
  }
  const cpuAtStart = process.cpuUsage()
  const started = performance.now()
  let next = 0
  let putErrors = 0
  const push = async () => {
    while (next < n) {
      const i = next++
      const res = await client.request("PUT", `/product/${ids[i]}`, server.siteA.basic, {
        data: records[i],
        images: [{ url: host.url(names[i]) }]
      })
      if (res.status !== 200 && res.status !== 201 && putErrors++ < 3)
        log(`PUT error ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`)
    }
  }
  await Promise.all(Array.from({ length: 8 }, push))
  const pushed = (performance.now() - started) / 1000

  let firstPass = NaN
  let firstPassCpu = NaN
  let bothPasses = NaN
  let bothPassesCpu = NaN
  let state = await progress()
  let lastLog = performance.now()
  while (Number.isNaN(bothPasses)) {
    const t = (performance.now() - started) / 1000
    if (Number.isNaN(firstPass) && state.analysed >= n) {
      firstPass = t
      firstPassCpu = cpuSeconds(cpuAtStart)
    }
    if (state.detected + state.failed >= n) {
      bothPasses = t
      bothPassesCpu = cpuSeconds(cpuAtStart)
    } else {
      if (performance.now() - started > TIMEOUT_MS)
        throw new Error(`images not analysed in time: ${JSON.stringify(state)}`)
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now()
        log(`t=${t.toFixed(0)}s analysed ${state.analysed}/${n}, objects ${state.detected}/${n - state.failed}`)
      }
      // Coarse on purpose: the polling's store reads count in this process's CPU time.
      await sleep(250)
      state = await progress()
    }
  }
  while ((await pendingJobs(client)) !== 0) await sleep(100)
  await host.close()
  log(
    `image indexing: first pass after ${firstPass.toFixed(1)} s (${firstPassCpu.toFixed(1)} CPU-s), ` +
      `objects after ${bothPasses.toFixed(1)} s (${bothPassesCpu.toFixed(1)} CPU-s), ${state.failed} failed`
  )

  const threads = options.imageThreads
  const cores = os.cpus().length
  const firstRate = n / firstPass
  const firstPerCore = n / firstPassCpu
  const detectRate = n / Math.max(1e-3, bothPasses - firstPass)
  const detectPerCore = n / Math.max(1e-3, bothPassesCpu - firstPassCpu)
  return {
    summary: [
      [
        "Image indexing, first pass (fetch, decode, features, adult, colours; re-indexed)",
        `${fmtRate(firstPerCore)} images per CPU-second; ${fmtRate(firstRate)} images/s wall clock = ` +
          `${fmtRate(firstRate / threads)} per analyser thread ` +
          `(${n} images in ${firstPass.toFixed(1)} s incl. PUTs (${pushed.toFixed(1)} s), ` +
          `${firstPassCpu.toFixed(1)} CPU-s; 1 in-process worker, IMAGE_THREADS=${threads}, ${cores} cores)`,
        "≥ 8 images/s per core",
        check(firstPerCore >= 8)
      ],
      [
        "Image indexing, detection pass (objects; runs after)",
        `${fmtRate(detectPerCore)} images per CPU-second; ${fmtRate(detectRate)} images/s wall clock = ` +
          `${fmtRate(detectRate / threads)} per analyser thread ` +
          `(all objects ${bothPasses.toFixed(1)} s after the first PUT; ${state.failed} images failed)`,
        "",
        ""
      ]
    ],
    latency: []
  }
}
