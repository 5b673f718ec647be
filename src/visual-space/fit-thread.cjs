"use strict"
/**
 * The fit of a learned visual space (see VisualSpace.ts for what it is and why), in a thread of
 * its own: at catalog scale it is long arithmetic, which must not hold the event
 * loop that serves searches. Plain CommonJS on purpose: worker_threads cannot load .ts under
 * tsx or vitest.
 *
 * Protocol: one message { d, labels, vectors, options } (labels[i] names the product of
 * vectors[i*d .. (i+1)*d), vectors a Float32Array); one reply { inputDims, outputDims, mean,
 * projection } (buffers transferred) or { error }. The thread then ends.
 */
const { parentPort } = require("node:worker_threads")
const { EigenvalueDecomposition, Matrix } = require("ml-matrix")

/** Cholesky factor (lower, row-major) of a symmetric positive definite n×n matrix. */
const cholesky = (a, n) => {
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
const forward = (l, n, b) => {
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
const backward = (l, n, b) => {
  const x = new Float64Array(n)
  for (let i = n - 1; i >= 0; i--) {
    let sum = b[i]
    for (let k = i + 1; k < n; k++) sum -= l[k * n + i] * x[k]
    x[i] = sum / l[i * n + i]
  }
  return x
}

/** A deterministic sample of `k` of `items` (evenly spaced): the same catalog fits the same space. */
const spread = (items, k) => {
  if (items.length <= k) return items
  const out = []
  for (let i = 0; i < k; i++) out.push(items[Math.floor((i * items.length) / k)])
  return out
}

const fit = ({ d, labels, vectors, options }) => {
  const count = labels.length
  if (count === 0) throw new Error("no samples to fit a visual space on")
  const row = (s) => vectors.subarray(s * d, (s + 1) * d)
  const byClass = new Map()
  for (let s = 0; s < count; s++) {
    let list = byClass.get(labels[s])
    if (list === undefined) byClass.set(labels[s], (list = []))
    list.push(s)
  }
  const classes = [...byClass.keys()].sort()
  const mean = new Float64Array(d)
  const classMean = new Map()
  for (const c of classes) {
    const m = new Float64Array(d)
    const members = byClass.get(c)
    for (const s of members) {
      const v = row(s)
      for (let i = 0; i < d; i++) m[i] += v[i]
    }
    for (let i = 0; i < d; i++) {
      mean[i] += m[i]
      m[i] /= members.length
    }
    classMean.set(c, m)
  }
  for (let i = 0; i < d; i++) mean[i] /= count

  // Within-product scatter over a bounded sample of the photos of products with several.
  const within = new Float64Array(d * d)
  const several = []
  for (let s = 0; s < count; s++) if (byClass.get(labels[s]).length > 1) several.push(s)
  const spreadSamples = spread(several, options.maxSamples)
  // Eight deviations at a time: each cell of the triangle is read and written once per eight
  // samples (the accumulation is most of a fit's time, and blocks of eight run it far faster).
  const BLOCK = 8
  const devs = Array.from({ length: BLOCK }, () => new Float64Array(d))
  for (let start = 0; start < spreadSamples.length; start += BLOCK) {
    const taken = Math.min(BLOCK, spreadSamples.length - start)
    for (let b = 0; b < BLOCK; b++) {
      const dev = devs[b]
      if (b >= taken) {
        dev.fill(0)
        continue
      }
      const s = spreadSamples[start + b]
      const v = row(s)
      const m = classMean.get(labels[s])
      for (let i = 0; i < d; i++) dev[i] = v[i] - m[i]
    }
    const [d0, d1, d2, d3, d4, d5, d6, d7] = devs
    for (let i = 0; i < d; i++) {
      const a0 = d0[i],
        a1 = d1[i],
        a2 = d2[i],
        a3 = d3[i],
        a4 = d4[i],
        a5 = d5[i],
        a6 = d6[i],
        a7 = d7[i]
      const r = i * d
      for (let j = 0; j <= i; j++) {
        within[r + j] +=
          a0 * d0[j] + a1 * d1[j] + a2 * d2[j] + a3 * d3[j] + a4 * d4[j] + a5 * d5[j] + a6 * d6[j] + a7 * d7[j]
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
    const m = classMean.get(c)
    const offset = new Float64Array(d)
    for (let i = 0; i < d; i++) offset[i] = m[i] - mean[i]
    const y = forward(l, d, offset)
    const w = Math.sqrt(byClass.get(c).length / count)
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
  const eigenvectors = eig.eigenvectorMatrix
  const largest = values.reduce((m, x) => Math.max(m, x), 0)
  const order = values
    .map((v, i) => [v, i])
    .sort((x, y) => y[0] - x[0])
    .filter(([v]) => v > 1e-12 * Math.max(1e-300, largest))
  const k = Math.min(options.maxDims, order.length, d)
  const projection = new Float32Array(k * d)
  for (let r = 0; r < k; r++) {
    const [value, column] = order[r]
    // v = M'ᵀ u / √λ (unit length in the whitened space); the input-space row is L⁻ᵀ v.
    const v = new Float64Array(d)
    for (let a = 0; a < rows.length; a++) {
      const u = eigenvectors.get(a, column)
      if (u === 0) continue
      for (let i = 0; i < d; i++) v[i] += rows[a][i] * u
    }
    const norm = Math.sqrt(value)
    for (let i = 0; i < d; i++) v[i] /= norm
    const out = backward(l, d, v)
    for (let i = 0; i < d; i++) projection[r * d + i] = out[i]
  }
  return { inputDims: d, outputDims: k, mean, projection }
}

parentPort.once("message", (request) => {
  try {
    const space = fit(request)
    parentPort.postMessage(space, [space.mean.buffer, space.projection.buffer])
  } catch (e) {
    parentPort.postMessage({ error: e instanceof Error ? e.message : String(e) })
  }
})
