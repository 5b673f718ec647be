/** FNV-1a over a string's UTF-16 code units: a stable, well-spread 32-bit hash (unsigned). */
export const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}
