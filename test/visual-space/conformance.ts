import { describe, expect, it } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { mulberry32 } from "../../bench/catalog/random.js"
import type { VisualSpace } from "../../src/visual-space/VisualSpace.js"
import {
  type StoredVisualSpace,
  VisualSpaceStore,
  type VisualSpaceStoreService
} from "../../src/visual-space/VisualSpaceStore.js"

/** A space of these dims with values from `seed` (not representable in Float32, for the mean). */
export const spaceOf = (inputDims: number, outputDims: number, seed: number): VisualSpace => {
  const random = mulberry32(seed)
  const mean = new Float64Array(inputDims)
  for (let i = 0; i < inputDims; i++) mean[i] = (random.next() - 0.5) / 3
  const projection = new Float32Array(outputDims * inputDims)
  for (let i = 0; i < projection.length; i++) projection[i] = (random.next() - 0.5) * 10
  return { inputDims, outputDims, mean, projection }
}

export const fitOf = (space: VisualSpace, fittedAt = 1_700_000_000_123): Omit<StoredVisualSpace, "version"> => ({
  fittedAt,
  photos: 40 + space.inputDims,
  samples: 400 + space.outputDims,
  space
})

const bytes = (a: Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)

/** `stored` holds `fit` at `version`: the figures equal, the arrays of the same type and byte for byte. */
export const expectStored = (
  stored: Option.Option<StoredVisualSpace>,
  version: number,
  fit: Omit<StoredVisualSpace, "version">
) => {
  expect(Option.isSome(stored)).toBe(true)
  const s = Option.getOrThrow(stored)
  expect({ version: s.version, fittedAt: s.fittedAt, photos: s.photos, samples: s.samples }).toEqual({
    version,
    fittedAt: fit.fittedAt,
    photos: fit.photos,
    samples: fit.samples
  })
  expect([s.space.inputDims, s.space.outputDims]).toEqual([fit.space.inputDims, fit.space.outputDims])
  expect(s.space.mean).toBeInstanceOf(Float64Array)
  expect(s.space.projection).toBeInstanceOf(Float32Array)
  expect(s.space.mean.length).toBe(fit.space.inputDims)
  expect(s.space.projection.length).toBe(fit.space.outputDims * fit.space.inputDims)
  expect(bytes(s.space.mean).equals(bytes(fit.space.mean))).toBe(true)
  expect(bytes(s.space.projection).equals(bytes(fit.space.projection))).toBe(true)
}

/**
 * The behaviour every VisualSpaceStore layer must show, through the interface only. `makeLayer`
 * is called once per test and must give an empty store (a fresh data dir, a flushed Redis).
 */
export const visualSpaceStoreConformance = (name: string, makeLayer: () => Layer.Layer<VisualSpaceStore, unknown>) =>
  describe(`VisualSpaceStore conformance: ${name}`, () => {
    const test = (title: string, body: (store: VisualSpaceStoreService) => Effect.Effect<void, unknown>) =>
      it.live(title, () => Effect.flatMap(VisualSpaceStore, body).pipe(Effect.provide(makeLayer())))

    test("a site without a space has none, at version 0", (store) =>
      Effect.gen(function* () {
        expect(Option.isNone(yield* store.get(1))).toBe(true)
        expect(yield* store.version(1)).toBe(0)
      }))

    test("the first put is version 1 and reads back byte for byte", (store) =>
      Effect.gen(function* () {
        const fit = fitOf(spaceOf(12, 5, 1))
        expect(yield* store.put(1, fit, 0)).toBe(1)
        expect(yield* store.version(1)).toBe(1)
        expectStored(yield* store.get(1), 1, fit)
      }))

    test("each later put replaces the space whole, dims too, with the next version", (store) =>
      Effect.gen(function* () {
        yield* store.put(1, fitOf(spaceOf(12, 5, 1), 1_000), 0)
        const second = fitOf(spaceOf(7, 3, 2), 2_000)
        expect(yield* store.put(1, second, 0)).toBe(2)
        expect(yield* store.version(1)).toBe(2)
        expectStored(yield* store.get(1), 2, second)
        const third = fitOf(spaceOf(20, 9, 3), 3_000)
        expect(yield* store.put(1, third, 0)).toBe(3)
        expectStored(yield* store.get(1), 3, third)
      }))

    test("sites are kept apart", (store) =>
      Effect.gen(function* () {
        const one = fitOf(spaceOf(6, 2, 10))
        const two = fitOf(spaceOf(9, 4, 20))
        yield* store.put(1, one, 0)
        yield* store.put(2, fitOf(spaceOf(3, 1, 30)), 0)
        yield* store.put(2, two, 0)
        expectStored(yield* store.get(1), 1, one)
        expectStored(yield* store.get(2), 2, two)
        expect(yield* store.version(3)).toBe(0)
        expectStored(yield* store.get(1), 1, one)
        expect(yield* store.version(1)).toBe(1)
      }))

    test("a space of production size (256 × 1792) round-trips", (store) =>
      Effect.gen(function* () {
        const fit = fitOf(spaceOf(1792, 256, 7))
        expect(yield* store.put(5, fit, 0)).toBe(1)
        expectStored(yield* store.get(5), 1, fit)
        expect(yield* store.version(5)).toBe(1)
      }))

    test("a space whose arrays do not match its dims is refused, and nothing changes", (store) =>
      Effect.gen(function* () {
        const good = fitOf(spaceOf(6, 2, 1))
        yield* store.put(1, good, 0)
        const { space } = fitOf(spaceOf(6, 2, 2))
        const shortMean = yield* Effect.flip(store.put(1, fitOf({ ...space, mean: space.mean.subarray(1) }), 0))
        expect(shortMean._tag).toBe("VisualSpaceStoreError")
        const wrongRows = yield* Effect.flip(store.put(1, fitOf({ ...space, outputDims: 3 }), 0))
        expect(wrongRows._tag).toBe("VisualSpaceStoreError")
        const badCount = yield* Effect.flip(store.put(2, { ...fitOf(space), samples: -1 }, 0))
        expect(badCount._tag).toBe("VisualSpaceStoreError")
        expect(yield* store.version(1)).toBe(1)
        expectStored(yield* store.get(1), 1, good)
        expect(yield* store.version(2)).toBe(0)
      }))

    test("photos noted since the last fit add up per site; a put takes off what its fit counted", (store) =>
      Effect.gen(function* () {
        expect((yield* store.notePhotos(1, 3)).since).toBe(3)
        expect((yield* store.notePhotos(1, 4)).since).toBe(7)
        expect((yield* store.notePhotos(2, 1)).since).toBe(1)
        // The fit read 7; 2 more arrive while it runs: they count towards the next fit.
        expect((yield* store.notePhotos(1, 2)).since).toBe(9)
        expect((yield* store.notePhotos(1, 0)).atFit).toBe(0)
        const fit = fitOf(spaceOf(6, 2, 1))
        yield* store.put(1, fit, 7)
        expect(yield* store.notePhotos(1, 0)).toEqual({ since: 2, atFit: fit.photos })
        // Never below zero (a count lost to a removal meanwhile).
        yield* store.put(1, fitOf(spaceOf(6, 2, 2)), 50)
        expect((yield* store.notePhotos(1, 0)).since).toBe(0)
        expect((yield* store.notePhotos(2, 0)).since).toBe(1)
      }))

    test("the version a site's index is wholly in: 0 at first, only ever raised, per site", (store) =>
      Effect.gen(function* () {
        expect(yield* store.indexedVersion(1)).toBe(0)
        yield* store.markIndexed(1, 2)
        expect(yield* store.indexedVersion(1)).toBe(2)
        // A late re-indexing of an older version does not lower it.
        yield* store.markIndexed(1, 1)
        expect(yield* store.indexedVersion(1)).toBe(2)
        yield* store.markIndexed(1, 3)
        expect(yield* store.indexedVersion(1)).toBe(3)
        expect(yield* store.indexedVersion(2)).toBe(0)
      }))
  })
