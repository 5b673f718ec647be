/**
 * `items` cut into runs of at most `maxCount` items and `maxSize` of `sizeOf` (an item over
 * `maxSize` on its own goes alone), in order.
 */
export const chunksOf = <A>(
  items: ReadonlyArray<A>,
  sizeOf: (item: A) => number,
  maxSize: number,
  maxCount: number
): Array<Array<A>> => {
  const chunks: Array<Array<A>> = []
  let chunk: Array<A> = []
  let size = 0
  for (const item of items) {
    const itemSize = sizeOf(item)
    if (chunk.length > 0 && (size + itemSize > maxSize || chunk.length >= maxCount)) {
      chunks.push(chunk)
      chunk = []
      size = 0
    }
    chunk.push(item)
    size += itemSize
  }
  if (chunk.length > 0) chunks.push(chunk)
  return chunks
}
