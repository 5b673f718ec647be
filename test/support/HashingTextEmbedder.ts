import { Effect, Layer } from "effect"
import { TextEmbedder, type TextEmbedderService } from "../../src/services/text-embedder/TextEmbedder.js"

/** FNV-1a: a cheap, stable hash of a word. */
const fnv1a = (word: string) => {
  let h = 0x811c9dc5
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/**
 * A deterministic stand-in for the text model: each lowercase word adds ±1 to one of
 * `dimensions` buckets (by its hash), and the sum is scaled to unit length. Texts sharing
 * words are close, texts without common words are nearly orthogonal.
 *
 * Why a stub is fine where it is used: tests of the search rules (scope, pins, facets,
 * refinements, site isolation) check which products are allowed, where pins go and what is
 * counted, not how good the semantic ranking is; the real model takes seconds to load and
 * has its own tests (test/services/text-embedder) and the whole-server tests use it.
 */
export const hashingEmbedder = (dimensions = 64): TextEmbedderService => {
  const embedOne = (text: string) => {
    const vector = new Float32Array(dimensions)
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const h = fnv1a(word)
      vector[h % dimensions] += h >>> 31 === 0 ? 1 : -1
    }
    const norm = Math.hypot(...vector)
    if (norm === 0) vector[0] = 1
    else for (let i = 0; i < dimensions; i++) vector[i] /= norm
    return vector
  }
  return {
    dimensions,
    embed: (texts) => Effect.sync(() => texts.map(embedOne)),
    embedQuery: (text) => Effect.sync(() => embedOne(text)),
    // No vocabulary: any word the site does not know may be a misspelling.
    isWord: () => false,
    stats: Effect.succeed({
      documentsEmbedded: 0,
      queryCacheHits: 0,
      queryCacheMisses: 0,
      queryCacheSize: 0,
      readyWorkers: 1,
      workerRestarts: 0
    })
  }
}

export const HashingTextEmbedder = Layer.sync(TextEmbedder, () => hashingEmbedder())
