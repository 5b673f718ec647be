const OFFSET_BASIS = 0x811c9dc5

/**
 * FNV-1a over `text`'s UTF-16 code units, going on from `state` (the hash of what came before):
 * the hash of a prefix and a word is its prefix's state carried on over the word, with no
 * joined string built.
 */
export const fnv1aFrom = (state: number, text: string): number => {
  let hash = state
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

/** FNV-1a over a string's UTF-16 code units: a stable, well-spread 32-bit hash (unsigned). */
export const fnv1a = (text: string): number => fnv1aFrom(OFFSET_BASIS, text)
