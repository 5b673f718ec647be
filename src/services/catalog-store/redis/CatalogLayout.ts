/**
 * Redis data layout of the catalog store. A site's keys share the hash tag `{site}`; the
 * version counter and the site set are global, so the write scripts (which touch both) need
 * a single Redis (or a Cluster with every catalog key on one slot), like the SQLite store.
 *   cat:seq                      string: INCR'd for every put; versions grow across all products
 *   cat:sites                    set: site ids that ever had a product (stale/forEachProduct walk it)
 *   cat:{site}:ids               sorted set, all scores 0: product ids in lexicographic order (count, paging)
 *   cat:{site}:stale             sorted set, scores 0: products without derived data of their text version
 *   cat:{site}:unanalysed        sorted set, scores 0: products with an image that has no analysis yet
 *   cat:{site}:undetected        sorted set, scores 0: products with an analysed image whose objects are pending
 *   cat:{site}:imagefailed       sorted set, scores 0: products with an image whose analysis failed
 *   cat:{site}:lastwrite         string: epoch ms of the site's latest product put (absent before any)
 *   cat:imagework                string: set once every product's image work is in the two sets above
 *                                (they came later than the data; see RedisCatalogStore.pendingImageWork)
 *   cat:{site}:p:<product>       hash: data (JSON), images (JSON), group (absent = none), version, updated,
 *                                created, tver (the text version; absent in hashes written before it: the version)
 *   cat:{site}:g:<group>         set: product ids of an item group
 *   cat:{site}:d:<product>       hash: version (the text version it came from), vec (Float32Array bytes; absent = no
 *                                vector), key (of the vector's text)
 *   cat:{site}:img:<product>     hash: image id -> analysis JSON (embedding bytes as base64)
 *   cat:{site}:v:<product>       hash: image id -> its views' features (Float32 bytes, one view after another),
 *                                written by a visual-space fit, dropped with the analysis, read only by fits
 * Every script keeps `stale` in step with the product and its derived data atomically.
 * `unanalysed` and `undetected` are kept in step by every script that changes a product's
 * images or analyses, so the reconcile pass reads only the products with image work pending.
 * Product and group ids may contain ':', but each per-product key starts with its own fixed
 * segment (p:, g:, d:, img:, v:) and the per-site sets are single segments, so keys never collide.
 */
export const siteKeys = (siteId: number) => {
  const base = `cat:{${siteId}}:`
  return {
    base,
    ids: `${base}ids`,
    stale: `${base}stale`,
    unanalysed: `${base}unanalysed`,
    undetected: `${base}undetected`,
    imageFailed: `${base}imagefailed`,
    lastWrite: `${base}lastwrite`,
    product: (productId: string) => `${base}p:${productId}`,
    group: (groupId: string) => `${base}g:${groupId}`,
    derived: (productId: string) => `${base}d:${productId}`,
    images: (productId: string) => `${base}img:${productId}`,
    views: (productId: string) => `${base}v:${productId}`
  }
}
export const seqKey = "cat:seq"
export const sitesKey = "cat:sites"
/** Set once the image work sets (failures included, the last added) were filled for data older than them. */
export const imageWorkKey = "cat:imagework:2"
export const productFields = ["data", "images", "version", "updated", "created", "tver"] as const

/** Lua: the product's text version (see StoredProduct.textVersion). */
const textVersion = `
local function textVersion(productKey)
  local row = redis.call('HMGET', productKey, 'tver', 'version')
  return row[1] or row[2]
end
`

/**
 * Lua: puts the product in or out of the `unanalysed` and `undetected` sets from its current
 * images and analyses. A pending detection is stored as `"objects":null`; JSON.stringify
 * escapes every quote inside a string, so that text cannot occur anywhere else in an analysis.
 */
const refreshImageWork = `
local function refreshImageWork(productKey, analysesKey, unanalysedKey, undetectedKey, productId)
  local images = redis.call('HGET', productKey, 'images')
  local unanalysed, undetected, failed = false, false, false
  if images then
    for _, image in ipairs(cjson.decode(images)) do
      if redis.call('HEXISTS', analysesKey, image.id) == 0 then
        unanalysed = true
        break
      end
    end
    for _, analysis in ipairs(redis.call('HVALS', analysesKey)) do
      if string.find(analysis, '"objects":null', 1, true) then undetected = true end
      if string.find(analysis, '"status":"failed"', 1, true) then failed = true end
    end
  end
  -- The failures' set is the site's, as unanalysed is: same prefix, so same hash tag and slot.
  local failedKey = string.gsub(unanalysedKey, 'unanalysed$', 'imagefailed')
  if failed then
    redis.call('ZADD', failedKey, 0, productId)
  else
    redis.call('ZREM', failedKey, productId)
  end
  if unanalysed then
    redis.call('ZADD', unanalysedKey, 0, productId)
  else
    redis.call('ZREM', unanalysedKey, productId)
  end
  if undetected then
    redis.call('ZADD', undetectedKey, 0, productId)
  else
    redis.call('ZREM', undetectedKey, productId)
  end
end
`

/**
 * Files one product's image work (for the one-off fill of the sets).
 * KEYS: product, images analyses, unanalysed, undetected. ARGV: product id.
 */
export const refreshImageWorkLua = `${refreshImageWork}
refreshImageWork(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1])
`

/**
 * Creates or replaces a product. The old item group is read from the stored hash, so its key
 * is built here from the site's prefix (same slot as KEYS). With new images, analyses of
 * images the product no longer has (and their views) are deleted in the same step.
 * KEYS: seq, sites, ids, stale, product, images analyses, new group ('' = none),
 * unanalysed, undetected, image views.
 * ARGV: site id, product id, data JSON, updated ms, key prefix, group id ('' when none),
 * replace images ('1'/'0'), images JSON, the version the product must be at ('' = any), the
 * embedded text is the stored one's ('1'/'0': the text version stays), then the kept image ids.
 * Returns {existed, version, images JSON, created ms, text version}, or {-1} when not at that version.
 */
export const putLua = `${refreshImageWork}${textVersion}
if ARGV[9] ~= '' and redis.call('HGET', KEYS[5], 'version') ~= ARGV[9] then return {-1} end
local oldGroup = redis.call('HGET', KEYS[5], 'group')
local existed = redis.call('EXISTS', KEYS[5])
local keptText = ARGV[10] == '1' and existed == 1 and textVersion(KEYS[5])
local version = string.format('%d', redis.call('INCR', KEYS[1]))
local images = ARGV[8]
if ARGV[7] == '1' then
  local keep = {}
  for i = 11, #ARGV do keep[ARGV[i]] = true end
  for _, id in ipairs(redis.call('HKEYS', KEYS[6])) do
    if not keep[id] then redis.call('HDEL', KEYS[6], id) end
  end
  for _, id in ipairs(redis.call('HKEYS', KEYS[10])) do
    if not keep[id] then redis.call('HDEL', KEYS[10], id) end
  end
else
  images = redis.call('HGET', KEYS[5], 'images') or '[]'
end
redis.call('HSET', KEYS[5], 'data', ARGV[3], 'images', images, 'version', version, 'updated', ARGV[4],
  'tver', keptText or version)
redis.call('HSETNX', KEYS[5], 'created', ARGV[4])
-- The site's latest write (same prefix as the product: same hash tag and slot).
redis.call('SET', ARGV[5] .. 'lastwrite', ARGV[4])
if KEYS[7] ~= '' then
  redis.call('HSET', KEYS[5], 'group', ARGV[6])
  redis.call('SADD', KEYS[7], ARGV[2])
else
  redis.call('HDEL', KEYS[5], 'group')
end
if oldGroup and ARGV[5] .. 'g:' .. oldGroup ~= KEYS[7] then
  redis.call('SREM', ARGV[5] .. 'g:' .. oldGroup, ARGV[2])
end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], 0, ARGV[2])
-- A new text needs its derived data; a kept one keeps whatever it had (or lacked).
if not keptText then redis.call('ZADD', KEYS[4], 0, ARGV[2]) end
if ARGV[7] == '1' then refreshImageWork(KEYS[5], KEYS[6], KEYS[8], KEYS[9], ARGV[2]) end
return {existed, tonumber(version), images, redis.call('HGET', KEYS[5], 'created'), tonumber(keptText or version)}
`

/**
 * Deletes a product with its group membership, derived data, image analyses and views.
 * KEYS: ids, stale, product, derived, images analyses, unanalysed, undetected, image views.
 * ARGV: product id, key prefix.
 * Returns the deleted product's data, images, version, updated, created, text version (nil when unknown).
 */
export const removeLua = `
local row = redis.call('HMGET', KEYS[3], 'data', 'images', 'version', 'updated', 'group', 'created', 'tver')
if not row[1] then return nil end
if row[5] then redis.call('SREM', ARGV[2] .. 'g:' .. row[5], ARGV[1]) end
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5], KEYS[8])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[6], ARGV[1])
redis.call('ZREM', KEYS[7], ARGV[1])
redis.call('ZREM', ARGV[2] .. 'imagefailed', ARGV[1])
return {row[1], row[2], row[3], row[4], row[6] or row[4], row[7] or row[3]}
`

/**
 * Saves derived data only while the product is still at that text version (a late job never
 * overwrites newer data). KEYS: product, derived, stale.
 * ARGV: product id, text version, has vector ('1'/'0'), vector bytes, text key ('' = none).
 * Returns 1 saved, 0 refused.
 */
export const saveDerivedLua = `${textVersion}
if textVersion(KEYS[1]) ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[2])
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[2], 'version', ARGV[2], 'vec', ARGV[4])
  if ARGV[5] ~= '' then redis.call('HSET', KEYS[2], 'key', ARGV[5]) end
else
  redis.call('HSET', KEYS[2], 'version', ARGV[2])
end
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
`

/**
 * Moves the saved text vector to the product's current text version when it was computed from
 * the same text (see CatalogStore.reuseTextVectors). KEYS: product, derived, stale.
 * ARGV: product id, text version, text key. Returns the vector bytes, or nil when none fits.
 */
export const reuseTextVectorLua = `${textVersion}
if textVersion(KEYS[1]) ~= ARGV[2] then return false end
local saved = redis.call('HMGET', KEYS[2], 'key', 'vec')
if saved[1] ~= ARGV[3] or not saved[2] then return false end
redis.call('HSET', KEYS[2], 'version', ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[1])
return saved[2]
`

/**
 * Makes the product stale again if it is still at the version whose index write failed.
 * KEYS: product, stale. ARGV: product id, version.
 */
export const markStaleLua = `
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[2] then return 0 end
redis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
`

/**
 * Saves analyses of images the product still has and that have none yet (HSETNX: the first
 * of two racing analyses wins). KEYS: product, images analyses, unanalysed, undetected.
 * ARGV: product id, then image id, analysis JSON, … Returns how many were saved.
 */
export const saveAnalysesLua = `${refreshImageWork}
local images = redis.call('HGET', KEYS[1], 'images')
if not images then return 0 end
local current = {}
for _, image in ipairs(cjson.decode(images)) do current[image.id] = true end
local kept = 0
for i = 2, #ARGV, 2 do
  if current[ARGV[i]] then
    kept = kept + redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1])
  end
end
if kept > 0 then refreshImageWork(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1]) end
return kept
`

/**
 * Saves the features of photos' views for images that have an ok analysis (which exists only
 * for images the product has: put and remove drop both together) and no views yet. As with
 * `"objects":null`, `"status":"ok"` can only be the field itself in JSON.stringify's output.
 * KEYS: images analyses, image views. ARGV: image id, views bytes, … Returns how many were saved.
 */
export const saveViewsLua = `
local kept = 0
for i = 1, #ARGV, 2 do
  local analysis = redis.call('HGET', KEYS[1], ARGV[i])
  if analysis and string.find(analysis, '"status":"ok"', 1, true) then
    kept = kept + redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1])
  end
end
return kept
`

/**
 * Fills in pending objects by compare-and-set: the client read each analysis and sends it
 * back with its objects filled in, written only if the stored JSON is still exactly what it
 * read (re-encoding in Lua would round its numbers to 14 digits). Analyses exist only for
 * images the product has (put drops the others atomically), so a match also means the image
 * is still the product's. KEYS: images analyses, product, unanalysed, undetected.
 * ARGV: product id, then image id, JSON read, new JSON, … Returns how many were written.
 */
export const saveObjectsLua = `${refreshImageWork}
local saved = 0
for i = 2, #ARGV, 3 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
    saved = saved + 1
  end
end
if saved > 0 then refreshImageWork(KEYS[2], KEYS[1], KEYS[3], KEYS[4], ARGV[1]) end
return saved
`
