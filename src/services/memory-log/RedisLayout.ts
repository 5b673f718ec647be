import type { MemoryItem } from "./MemoryLog.js"
import { type PreparedItem, storedItem } from "./Validation.js"

/**
 * Redis data layout of conversation memory. Every key carries the site id, and the site id is
 * the hash tag (`{…}`), so one site's keys share a Redis Cluster slot and the append script,
 * which touches a conversation's keys and the site's index together, stays legal on a cluster.
 *   mem:{site}:<conversation>:items    stream; entry id `<position>-1`, fields r, c, m ('' = none), t (epoch ms)
 *   mem:{site}:<conversation>:meta     hash: createdAt, lastAppendedAt (epoch ms), length
 *   mem:{site}:<conversation>:idem     hash: idempotency key -> "first,count" (kept as long as the conversation)
 *   mem:{site}:<conversation>:summary  hash: length (items folded), state (SummaryState JSON)
 *   mem:{site}:index                   sorted set: conversation id scored by lastAppendedAt
 * Conversation ids may contain ':', but every conversation key ends in one of the fixed
 * suffixes above and "index" is not one of them, so no two keys can collide.
 */
export const conversationKeys = (siteId: number, conversationId: string) => {
  const base = `mem:{${siteId}}:${conversationId}`
  return { items: `${base}:items`, meta: `${base}:meta`, idem: `${base}:idem`, summary: `${base}:summary` }
}
export const indexKey = (siteId: number) => `mem:{${siteId}}:index`

/** A stream entry back to an item: the position is the entry id's first part. */
export type StreamEntry = [id: string, fields: Array<string>]

export const toItem = ([id, fields]: StreamEntry): MemoryItem => {
  const f: Record<string, string> = {}
  for (let i = 0; i < fields.length; i += 2) f[fields[i]] = fields[i + 1]
  const item: PreparedItem = { role: f.r as PreparedItem["role"], content: f.c, metadataJson: f.m === "" ? null : f.m }
  return storedItem(item, Number(id.split("-")[0]), Number(f.t))
}

/**
 * The whole append in one script, so it is atomic and every api process sees one total order:
 * a known key returns its stored positions; a batch that would pass the length limit writes
 * nothing; otherwise the items get consecutive positions and one timestamp from the Redis
 * clock (one clock for all processes), never earlier than the previous append's.
 * It also returns the stored summary state, so the appender can fold its items into it and
 * save it with one more round trip instead of three.
 * KEYS: items, meta, idem, index, summary. ARGV: key ('' = none), max length, conversation id,
 * then role, content, metadata per item.
 * Returns {0, first, count, time, summary state JSON or ''} (stored), {1, first, count}
 * (duplicate) or {2, length} (too long).
 */
export const appendLua = `
local key = ARGV[1]
if key ~= '' then
  local seen = redis.call('HGET', KEYS[3], key)
  if seen then
    local first, count = string.match(seen, '^(%d+),(%d+)$')
    return {1, tonumber(first), tonumber(count)}
  end
end
local length = tonumber(redis.call('HGET', KEYS[2], 'length') or '0')
local count = (#ARGV - 3) / 3
if length + count > tonumber(ARGV[2]) then return {2, length} end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
now = math.max(now, tonumber(redis.call('HGET', KEYS[2], 'lastAppendedAt') or '0'))
local stamp = string.format('%d', now)
for i = 0, count - 1 do
  local a = 4 + i * 3
  redis.call('XADD', KEYS[1], string.format('%d-1', length + i),
    'r', ARGV[a], 'c', ARGV[a + 1], 'm', ARGV[a + 2], 't', stamp)
end
if length == 0 then redis.call('HSET', KEYS[2], 'createdAt', stamp) end
redis.call('HSET', KEYS[2], 'lastAppendedAt', stamp, 'length', length + count)
redis.call('ZADD', KEYS[4], stamp, ARGV[3])
if key ~= '' then redis.call('HSET', KEYS[3], key, string.format('%d,%d', length, count)) end
return {0, length, count, stamp, redis.call('HGET', KEYS[5], 'state') or ''}
`

/**
 * Stores a summary state only if it covers more items than the stored one. The fold is
 * deterministic, so whichever process folded further holds the right state, and concurrent
 * refreshes can race freely. KEYS: summary. ARGV: length, state JSON.
 */
export const saveSummaryLua = `
if tonumber(redis.call('HGET', KEYS[1], 'length') or '-1') >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'length', ARGV[1], 'state', ARGV[2])
return 1
`
