import { Effect } from "effect"
import { Redis } from "ioredis"

/**
 * A scoped ioredis client for services that must fail fast rather than wait: without the
 * offline queue a command fails at once while disconnected, `commandTimeoutMs` covers a hung
 * server, and the client reconnects by itself in the background. Connection errors surface
 * through `onError` (never with the URL, which may carry a password); the client's error
 * events would only add noise, since every failure reaches the caller anyway.
 */
export const connectFailFast = <E>(url: string, options: { readonly commandTimeoutMs: number }, onError: (cause: unknown) => E) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const client = new Redis(url, {
          lazyConnect: true,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          connectTimeout: 1_000,
          commandTimeout: options.commandTimeoutMs
        })
        client.on("error", () => {})
        await client.connect().catch((error: unknown) => {
          client.disconnect()
          throw error
        })
        return client
      },
      catch: onError
    }),
    (client) => Effect.promise(() => client.quit().then(() => {}, () => client.disconnect()))
  )
