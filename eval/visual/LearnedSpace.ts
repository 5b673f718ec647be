import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { fitVisualSpace, project, type LabelledVector } from "../../src/visual-space/VisualSpace.js"
import { colorSignature } from "../../src/visual-space/ColorSignature.js"
import { CENTRE, meanDirection, mirrored } from "../../src/visual-space/PhotoViews.js"
import { learnedProjection } from "../../src/visual-space/SiteVisualSpaces.js"
import { ImageAnalyzer, type RgbImage } from "../../src/services/image-analyzer/ImageAnalyzer.js"
import { ImageIntake } from "../../src/services/image-intake/ImageIntake.js"
import { toRgb } from "../../src/services/image-intake/Rgb.js"
import type { Judged } from "./Metrics.js"

/**
 * The learned visual space (src/visual-space/VisualSpace.ts) measured on the catalog the eval
 * built: fitted on the catalog's own photos only (the iconic photo and the train photos given
 * as product images; with flipped and centre-cropped copies of them as further samples of their
 * product), never on a query photo; the queries (val) are projected into it and ranked by their
 * nearest catalog photo. Computed here beside the product path, with the service's image model
 * and preprocessing: the rows show what each step contributes.
 */
export interface GalleryImage {
  readonly productId: string
  readonly file: string
}

const unit = (v: Float32Array) => {
  let n = 0
  for (const x of v) n += x * x
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0
  return v.map((x) => x * inv)
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i] * b[i]
  return s
}

/**
 * The full photo, its mirror image, its centre (70 %) and its colour signature, as the service's
 * analysis prepares a photo.
 */
const views = (file: string) =>
  Effect.gen(function* () {
    const intake = yield* ImageIntake
    const analyzer = yield* ImageAnalyzer
    const decoded = yield* intake.decode(fs.readFileSync(file), "image")
    const full = yield* toRgb(decoded, { size: 512, fit: "contain" })
    const centre = yield* toRgb(decoded, { size: 512, fit: "contain", crop: CENTRE })
    const embed = (rgb: RgbImage) => Effect.map(analyzer.embed(rgb, { priority: "batch" }), unit)
    return {
      full: yield* embed(full),
      flip: yield* embed(mirrored(full)),
      centre: yield* embed(centre),
      signature: yield* colorSignature(decoded),
      centreSignature: yield* colorSignature(decoded, CENTRE)
    }
  })

const rank = (query: Float32Array, gallery: ReadonlyArray<{ productId: string; vector: Float32Array }>) => {
  const best = new Map<string, number>()
  for (const g of gallery) {
    const s = dot(query, g.vector)
    if (s > (best.get(g.productId) ?? -Infinity)) best.set(g.productId, s)
  }
  return [...best]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([id]) => id)
}

export interface LearnedRows {
  readonly rows: ReadonlyArray<{
    readonly name: string
    readonly judged: ReadonlyArray<Judged>
    readonly msPerQuery: number
  }>
  readonly fitMs: number
  readonly samples: number
  readonly dims: number
}

export const learnedSpaceRows = (
  gallery: ReadonlyArray<GalleryImage>,
  queries: ReadonlyArray<{ readonly file: string; readonly expected: string }>,
  dir: string
) =>
  Effect.gen(function* () {
    type Views = {
      readonly full: Float32Array
      readonly flip: Float32Array
      readonly centre: Float32Array
      readonly signature: Uint8Array
      readonly centreSignature: Uint8Array
    }
    const galleryViews: Array<Views & { readonly productId: string }> = []
    for (const g of gallery) galleryViews.push({ productId: g.productId, ...(yield* views(path.join(dir, g.file))) })
    const queryViews: Array<Views & { readonly expected: string }> = []
    const queryMs: Array<number> = []
    for (const q of queries) {
      const t = performance.now()
      queryViews.push({ expected: q.expected, ...(yield* views(path.join(dir, q.file))) })
      queryMs.push(performance.now() - t)
    }
    const plain: Array<LabelledVector> = galleryViews.map((g) => ({ label: g.productId, vector: g.full }))
    const augmented: Array<LabelledVector> = galleryViews.flatMap((g) => [
      { label: g.productId, vector: g.full },
      { label: g.productId, vector: g.flip },
      { label: g.productId, vector: g.centre }
    ])
    const t = performance.now()
    const space = yield* Effect.promise(() => fitVisualSpace(augmented))
    const fitMs = performance.now() - t
    const plainSpace = yield* Effect.promise(() => fitVisualSpace(plain))
    // A query's embedding costs one model call (two with the flip); the ranking is a scan of the catalog's photos.
    const perQuery = queryMs.reduce((a, b) => a + b, 0) / Math.max(1, queryMs.length) / 3
    const judge = (
      embedGallery: (v: Float32Array, signature: Uint8Array) => Float32Array,
      embedQuery: (q: Views) => Float32Array
    ) => {
      const projected = galleryViews.map((g) => ({ productId: g.productId, vector: embedGallery(g.full, g.signature) }))
      return queryViews.map((q) => ({ expected: q.expected, ranking: rank(embedQuery(q), projected) }))
    }
    const both = (q: Views) => unit(q.full.map((x, i) => x + q.flip[i]))
    const withColors = learnedProjection(space)
    const rows = [
      {
        name: "raw cosine, nearest catalog photo",
        judged: judge(
          (v) => v,
          (q) => q.full
        ),
        msPerQuery: perQuery
      },
      {
        name: "learned space, catalog photos",
        judged: judge(
          (v) => project(plainSpace, v),
          (q) => project(plainSpace, q.full)
        ),
        msPerQuery: perQuery
      },
      {
        name: "+ flipped and cropped copies as samples",
        judged: judge(
          (v) => project(space, v),
          (q) => project(space, q.full)
        ),
        msPerQuery: perQuery
      },
      {
        name: "+ query and its mirror image averaged",
        judged: judge(
          (v) => project(space, v),
          (q) => project(space, both(q))
        ),
        msPerQuery: 2 * perQuery
      },
      {
        name: "+ colour signatures (the product path's vectors)",
        judged: judge(withColors, (q) => withColors(meanDirection(q.full, q.flip), q.centreSignature)),
        msPerQuery: 2 * perQuery
      },
      {
        name: "raw cosine + query mirror averaged (no learning)",
        judged: judge((v) => v, both),
        msPerQuery: 2 * perQuery
      }
    ]
    return { rows, fitMs, samples: augmented.length, dims: space.outputDims } satisfies LearnedRows
  })
