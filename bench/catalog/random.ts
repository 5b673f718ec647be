/** Seeded pseudo-random helpers (mulberry32): the same seed gives the same catalog and workload. */
export interface Random {
  /** Uniform in [0, 1). */
  readonly next: () => number
  readonly int: (minInclusive: number, maxInclusive: number) => number
  readonly chance: (p: number) => boolean
  readonly pick: <A>(items: ReadonlyArray<A>) => A
  /** Zipf-like: low indexes far more frequent (popular brands, common words). */
  readonly zipf: <A>(items: ReadonlyArray<A>, exponent?: number) => A
  /** Weighted choice over [value, weight] pairs. */
  readonly weighted: <A>(entries: ReadonlyArray<readonly [A, number]>) => A
  /** Standard normal (Box–Muller). */
  readonly normal: () => number
  readonly shuffle: <A>(items: ReadonlyArray<A>) => Array<A>
  /** An independent stream derived from this one (so adding a draw here does not shift it). */
  readonly fork: (salt: number) => Random
}

export const mulberry32 = (seed: number): Random => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]
  const zipf = <A>(items: ReadonlyArray<A>, exponent = 1): A => {
    // Inverse transform of a continuous power law over [1, n + 1).
    const n = items.length
    const r = next()
    const index = exponent === 1 ? Math.floor((n + 1) ** r) - 1 : Math.floor(n * r ** (1 + exponent))
    return items[Math.min(n - 1, Math.max(0, index))]
  }
  const weighted = <A>(entries: ReadonlyArray<readonly [A, number]>): A => {
    const total = entries.reduce((sum, [, w]) => sum + w, 0)
    let r = next() * total
    for (const [value, w] of entries) {
      r -= w
      if (r < 0) return value
    }
    return entries[entries.length - 1][0]
  }
  const normal = () => {
    const u = Math.max(next(), 1e-12)
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next())
  }
  const shuffle = <A>(items: ReadonlyArray<A>): Array<A> => {
    const out = [...items]
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1))
      ;[out[i], out[j]] = [out[j], out[i]]
    }
    return out
  }
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick,
    zipf,
    weighted,
    normal,
    shuffle,
    fork: (salt) => mulberry32((seed * 2654435761) ^ Math.imul(salt + 1, 0x9e3779b1))
  }
}

/** A uniform sample of at most `size` items of a stream of unknown length (reservoir sampling). */
export const reservoir = <A>(random: Random, size: number) => {
  const items: Array<A> = []
  let seen = 0
  return {
    items,
    add: (item: A) => {
      seen++
      if (items.length < size) items.push(item)
      else {
        const j = Math.floor(random.next() * seen)
        if (j < size) items[j] = item
      }
    }
  }
}
