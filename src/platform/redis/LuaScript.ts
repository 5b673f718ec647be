import type { Redis } from "ioredis"
import { createHash } from "node:crypto"
import { makeBatcher, type Settled } from "../Batcher.js"

/**
 * A Lua script run by its SHA (EVALSHA saves resending the source on every call), falling back
 * to EVAL, which runs and caches it again, after a Redis restart or SCRIPT FLUSH.
 */
const scriptVia = <A>(
  lua: string,
  run: (command: "EVALSHA" | "EVAL", body: string, ...rest: Array<string | number | Buffer>) => Promise<A>
) => {
  const sha = createHash("sha1").update(lua).digest("hex")
  return (keys: ReadonlyArray<string>, args: ReadonlyArray<string | number | Buffer>): Promise<A> =>
    run("EVALSHA", sha, keys.length, ...keys, ...args).catch((e: unknown) =>
      String(e).includes("NOSCRIPT") ? run("EVAL", lua, keys.length, ...keys, ...args) : Promise.reject(e)
    )
}

export const script = (client: Redis, lua: string) =>
  scriptVia(lua, (command, body, ...rest) => client.call(command, body, ...rest))

/** `script` for a script that returns bytes (a vector): its bulk-string reply as a Buffer, not decoded as UTF-8. */
export const bufferScript = (client: Redis, lua: string) =>
  scriptVia(lua, (command, body, ...rest) => client.callBuffer(command, body, ...rest) as Promise<Buffer | null>)

type ScriptCall = { readonly keys: ReadonlyArray<string>; readonly args: ReadonlyArray<string | number | Buffer> }

/**
 * `script`, with the calls made in the same event-loop turn sent as one pipeline (Batcher):
 * one write and one read for all of them instead of one each. Each call gets its own reply or
 * error, as with `script`; a call that finds the script missing (NOSCRIPT) is run again alone
 * through `script`, which loads it.
 */
export const batchedScript = (client: Redis, lua: string, options: { readonly maxBatch?: number } = {}) => {
  const sha = createHash("sha1").update(lua).digest("hex")
  const single = script(client, lua)
  const batcher = makeBatcher<ScriptCall, unknown>(
    async (calls) => {
      if (calls.length === 1)
        return [await single(calls[0].keys, calls[0].args).then((value) => ({ ok: true as const, value }))]
      const pipeline = client.pipeline()
      for (const { args, keys } of calls) pipeline.evalsha(sha, keys.length, ...keys, ...args)
      const replies = (await pipeline.exec()) ?? []
      return Promise.all(
        calls.map(async (call, i): Promise<Settled<unknown>> => {
          const [error, value] = replies[i] ?? [new Error("no reply"), null]
          if (!error) return { ok: true, value }
          if (!String(error).includes("NOSCRIPT")) return { ok: false, error }
          return single(call.keys, call.args).then(
            (v) => ({ ok: true, value: v }),
            (e: unknown) => ({ ok: false, error: e })
          )
        })
      )
    },
    { maxBatch: options.maxBatch ?? 256 }
  )
  return (keys: ReadonlyArray<string>, args: ReadonlyArray<string | number | Buffer>): Promise<unknown> =>
    batcher.submit({ keys, args })
}
