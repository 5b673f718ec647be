import { EigenvalueDecomposition, Matrix } from "ml-matrix"

/**
 * A learned space for a site's image features (issue: visual search that beats its backbone).
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
 * then a d×d accumulation over those samples, one Cholesky factorisation (d = 1792: ~3 s) and
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

/** Cholesky factor (lower, row-major) of a symmetric positive definite n×n matrix, in place of a copy. */
const cholesky = (a: Float64Array, n: number): Float64Array => {
  const l = new Float64Array(n * n)
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i * n + j]
      const ri = i * n
      const rj = j * n
      for (let k = 0; k < j; k++) sum -= l[ri + k] * l[rj + k]
      if (i === j) {
        if (sum <= 0) throw new Error("within-product scatter is not positive definite")
        l[ri + i] = Math.sqrt(sum)
      } else {
        l[ri + j] = sum / l[rj + j]
      }
    }
  }
  return l
}

/** y = L⁻¹ b (forward substitution). */
const forward = (l: Float64Array, n: number, b: ArrayLike<number>): Float64Array => {
  const y = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    let sum = b[i]
    const ri = i * n
    for (let k = 0; k < i; k++) sum -= l[ri + k] * y[k]
    y[i] = sum / l[ri + i]
  }
  return y
}

/** x = L⁻ᵀ b (back substitution with the transpose). */
const backward = (l: Float64Array, n: number, b: ArrayLike<number>): Float64Array => {
  const x = new Float64Array(n)
  for (let i = n - 1; i >= 0; i--) {
    let sum = b[i]
    for (let k = i + 1; k < n; k++) sum -= l[k * n + i] * x[k]
    x[i] = sum / l[i * n + i]
  }
  return x
}

/** A deterministic sample of `k` of `items` (evenly spaced): the same catalog fits the same space. */
const spread = <A>(items: ReadonlyArray<A>, k: number): ReadonlyArray<A> => {
  if (items.length <= k) return items
  const out: Array<A> = []
  for (let i = 0; i < k; i++) out.push(items[Math.floor((i * items.length) / k)])
  return out
}

export const fitVisualSpace = (samples: ReadonlyArray<LabelledVector>, options: FitOptions = DEFAULT_FIT): VisualSpace => {
  if (samples.length === 0) throw new Error("no samples to fit a visual space on")
  const d = samples[0].vector.length
  const byClass = new Map<string, Array<Float32Array>>()
  for (const s of samples) {
    let list = byClass.get(s.label)
    if (list === undefined) byClass.set(s.label, (list = []))
    list.push(s.vector)
  }
  const classes = [...byClass.keys()].sort()
  const mean = new Float64Array(d)
  const classMean = new Map<string, Float64Array>()
  for (const c of classes) {
    const m = new Float64Array(d)
    for (const v of byClass.get(c)!) for (let i = 0; i < d; i++) m[i] += v[i]
    for (let i = 0; i < d; i++) {
      mean[i] += m[i]
      m[i] /= byClass.get(c)!.length
    }
    classMean.set(c, m)
  }
  for (let i = 0; i < d; i++) mean[i] /= samples.length

  // Within-product scatter over a bounded sample of the photos of products with several.
  const within = new Float64Array(d * d)
  const spreadSamples = spread(samples.filter((s) => byClass.get(s.label)!.length > 1), options.maxSamples)
  // Eight deviations at a time: each cell of the triangle is read and written once per eight
  // samples (the accumulation is most of a fit's time; ~4 times faster than one at a time).
  const BLOCK = 8
  const devs = Array.from({ length: BLOCK }, () => new Float64Array(d))
  for (let start = 0; start < spreadSamples.length; start += BLOCK) {
    const count = Math.min(BLOCK, spreadSamples.length - start)
    for (let b = 0; b < BLOCK; b++) {
      const dev = devs[b]
      if (b >= count) {
        dev.fill(0)
        continue
      }
      const s = spreadSamples[start + b]
      const m = classMean.get(s.label)!
      for (let i = 0; i < d; i++) dev[i] = s.vector[i] - m[i]
    }
    const [d0, d1, d2, d3, d4, d5, d6, d7] = devs
    for (let i = 0; i < d; i++) {
      const a0 = d0[i], a1 = d1[i], a2 = d2[i], a3 = d3[i], a4 = d4[i], a5 = d5[i], a6 = d6[i], a7 = d7[i]
      const row = i * d
      for (let j = 0; j <= i; j++) {
        within[row + j] += a0 * d0[j] + a1 * d1[j] + a2 * d2[j] + a3 * d3[j] + a4 * d4[j] + a5 * d5[j] + a6 * d6[j] + a7 * d7[j]
      }
    }
  }
  let trace = 0
  const scale = spreadSamples.length > 0 ? 1 / spreadSamples.length : 0
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      const v = within[i * d + j] * scale
      within[i * d + j] = v
      within[j * d + i] = v
    }
    trace += within[i * d + i]
  }
  // With no product photographed twice, the scatter is the identity's multiple alone: the space
  // is then the between-product directions of the raw features.
  const ridge = trace > 0 ? (options.shrinkage * trace) / d : 1
  for (let i = 0; i < d; i++) within[i * d + i] += ridge
  const l = cholesky(within, d)

  // Whitened, weighted class-mean offsets: rows of M'; the directions are B = M'ᵀM' 's top eigenvectors.
  const used = spread(classes, options.maxClasses)
  const rows = used.map((c) => {
    const m = classMean.get(c)!
    const offset = new Float64Array(d)
    for (let i = 0; i < d; i++) offset[i] = m[i] - mean[i]
    const y = forward(l, d, offset)
    const w = Math.sqrt(byClass.get(c)!.length / samples.length)
    for (let i = 0; i < d; i++) y[i] *= w
    return y
  })
  const gram = new Matrix(rows.length, rows.length)
  for (let a = 0; a < rows.length; a++) {
    for (let b = 0; b <= a; b++) {
      let dot = 0
      for (let i = 0; i < d; i++) dot += rows[a][i] * rows[b][i]
      gram.set(a, b, dot)
      gram.set(b, a, dot)
    }
  }
  const eig = new EigenvalueDecomposition(gram, { assumeSymmetric: true })
  const values = eig.realEigenvalues
  const vectors = eig.eigenvectorMatrix
  const order = values.map((v, i) => [v, i] as const).sort((x, y) => y[0] - x[0]).filter(([v]) => v > 1e-12 * Math.max(1e-300, values.reduce((m, x) => Math.max(m, x), 0)))
  const k = Math.min(options.maxDims, order.length, d)
  const projection = new Float32Array(k * d)
  for (let r = 0; r < k; r++) {
    const [value, column] = order[r]
    // v = M'ᵀ u / √λ (unit length in the whitened space); the input-space row is L⁻ᵀ v.
    const v = new Float64Array(d)
    for (let a = 0; a < rows.length; a++) {
      const u = vectors.get(a, column)
      if (u === 0) continue
      for (let i = 0; i < d; i++) v[i] += rows[a][i] * u
    }
    const norm = Math.sqrt(value)
    for (let i = 0; i < d; i++) v[i] /= norm
    const row = backward(l, d, v)
    for (let i = 0; i < d; i++) projection[r * d + i] = row[i]
  }
  return { inputDims: d, outputDims: k, mean, projection }
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
