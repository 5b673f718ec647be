import { createHash } from "node:crypto"

/** A product image's id, derived from its URL: the same URL keeps its id across updates and backends. */
export const imageId = (url: string): string => `img_${createHash("sha256").update(url).digest("hex").slice(0, 20)}`
