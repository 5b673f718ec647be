import { Effect } from "effect"
import { Redis } from "ioredis"

/**
 * A scoped ioredis client for services that must fail fast rather than wait: without the
 * offline queue a command fails at once while disconnected, `commandTimeoutMs` covers a hung
 * server, and the client reconnects by itself in the background. Connection errors surface
 * through `onError` (never with the URL, which may carry a password); the client's error
 * events would only add noise, since every failure reaches the caller anyway.
 */
export interface FailFastOptions {
  readonly commandTimeoutMs: number
  /**
   * For a connection that waits in blocking reads (XREAD BLOCK): no retry or resend of a command
   * cut by a dropped connection, so the caller's loop decides when to read again, and released
   * with `disconnect`, since QUIT would wait behind the blocked read.
   */
  readonly blocking?: boolean
}

export const connectFailFast = <E>(url: string, options: FailFastOptions, onError: (cause: unknown) => E) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const client = new Redis(url, {
          lazyConnect: true,
          enableOfflineQueue: false,
          // Without a retry limit a command already sent when the connection drops waits for the
          // reconnection, however long the server stays down.
          maxRetriesPerRequest: options.blocking ? 0 : 1,
          autoResendUnfulfilledCommands: !options.blocking,
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
    (client) =>
      options.blocking
        ? Effect.sync(() => client.disconnect())
        : Effect.promise(() =>
            client.quit().then(
              () => {},
              () => client.disconnect()
            )
          )
  )
