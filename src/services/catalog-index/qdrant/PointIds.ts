import { createHash } from "node:crypto"

/**
 * Qdrant point ids must be unsigned integers or UUIDs, while product ids are free strings
 * unique only within a site. A name-based UUID (RFC 4122 version 5: SHA-1 of a namespace and
 * the name) of `${siteId}:${productId}` is deterministic, so an upsert replaces the same
 * point and a delete or `has_id` filter needs no lookup. The product id itself is kept in
 * the payload to map hits back.
 */
const NAMESPACE = Buffer.from("6f1c5e0a9d2b4c7e8a3f5b1d2e4c6a80", "hex")

export const pointId = (siteId: number, productId: string): string => {
  const hash = createHash("sha1").update(NAMESPACE).update(`${siteId}:${productId}`, "utf8").digest()
  hash[6] = (hash[6] & 0x0f) | 0x50 // version 5
  hash[8] = (hash[8] & 0x3f) | 0x80 // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export const pointIds = (siteId: number, productIds: ReadonlyArray<string>): Array<string> =>
  [...new Set(productIds)].map((productId) => pointId(siteId, productId))
