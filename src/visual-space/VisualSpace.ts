import { Worker } from "node:worker_threads"

/**
 * A learned space for a site's image features, so that visual search beats its backbone.
 * The backbone's features (MobileNetV2 of an image-safety model) mix what tells products
 * apart with what varies between photos of one product (light, angle, background, crop). A
 * regularised linear discriminant (LDA) learnt from the catalog's own photos — every product
 * a class, its photos (and flipped or cropped copies of them) its samples — keeps the first and
 * damps the second: features are whitened by the within-product scatter (shrunk towards a
 * multiple of the identity, so a catalog with one photo per product still gets a sane space),
 * then projected on the directions along which products differ most.
 *
 * Bounded work: the within-product scatter is read from at most `maxSamples` photos and the
 * between-product directions from at most `maxClasses` products (a fixed sample); the costs are
 * then a d×d accumulation over those samples, one Cholesky factorisation of a d×d matrix and
 * the eigenvectors of a classes×classes Gram matrix, whatever the catalog's size.
 */
export interface VisualSpace {
  readonly inputDims: number
  readonly outputDims: number
  /** The samples' mean (input space). */
  readonly mean: Float64Array
  /** outputDims × inputDims, row-major: z = projection · (x − mean). */
  readonly projection: Float32Array
}

export interface FitOptions {
  /** Within-product scatter shrinkage towards (trace / d) · I, as a share of it. */
  readonly shrinkage: number
  /** Most output dimensions (the space has at most classes − 1). */
  readonly maxDims: number
  readonly maxSamples: number
  readonly maxClasses: number
}

export const DEFAULT_FIT: FitOptions = { shrinkage: 0.1, maxDims: 256, maxSamples: 5_000, maxClasses: 1_024 }

export interface LabelledVector {
  /** The product (class) the photo shows. */
  readonly label: string
  readonly vector: Float32Array
}

/**
 * Fits a space in a thread of its own (fit-thread.cjs holds the arithmetic): a catalog-scale fit
 * is long arithmetic that must not hold the event loop. Deterministic for the same
 * samples. Fails when there is nothing to fit on.
 */
export const fitVisualSpace = (
  samples: ReadonlyArray<LabelledVector>,
  options: FitOptions = DEFAULT_FIT
): Promise<VisualSpace> => {
  if (samples.length === 0) return Promise.reject(new Error("no samples to fit a visual space on"))
  const d = samples[0].vector.length
  const odd = samples.findIndex((s) => s.vector.length !== d)
  if (odd >= 0) return Promise.reject(new Error(`sample ${odd} has ${samples[odd].vector.length} dimensions, not ${d}`))
  const vectors = new Float32Array(samples.length * d)
  samples.forEach((s, i) => vectors.set(s.vector, i * d))
  const labels = samples.map((s) => s.label)
  return new Promise<VisualSpace>((resolve, reject) => {
    const thread = new Worker(new URL("./fit-thread.cjs", import.meta.url), { execArgv: [] })
    let settled = false
    thread.once("message", (reply: VisualSpace | { readonly error: string }) => {
      settled = true
      void thread.terminate()
      if ("error" in reply) reject(new Error(`visual space fit failed: ${reply.error}`))
      else resolve(reply)
    })
    thread.once("error", (e) => {
      settled = true
      reject(e)
    })
    thread.once("exit", (code) => {
      if (!settled) reject(new Error(`visual space fit thread exited with code ${code}`))
    })
    thread.postMessage({ d, labels, vectors, options }, [vectors.buffer])
  })
}

/** A raw feature vector in the learned space, unit length (cosine there is a dot product). */
export const project = (space: VisualSpace, vector: Float32Array): Float32Array => {
  const { inputDims: d, outputDims: k, mean, projection } = space
  const centred = new Float64Array(d)
  for (let i = 0; i < d; i++) centred[i] = vector[i] - mean[i]
  const out = new Float32Array(k)
  let norm = 0
  for (let r = 0; r < k; r++) {
    let dot = 0
    const row = r * d
    for (let i = 0; i < d; i++) dot += projection[row + i] * centred[i]
    out[r] = dot
    norm += dot * dot
  }
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0
  for (let r = 0; r < k; r++) out[r] *= inv
  return out
}
