import { Effect, Layer, Schedule } from "effect"
import { Redis } from "ioredis"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { freePort } from "./ServerProcess.js"

export interface RedisServer {
  readonly url: string
  readonly port: number
  readonly dir: string
  /** Stops the server (SIGTERM; it writes its AOF) and waits for it to exit. */
  readonly stop: () => Promise<void>
  /** Starts it again on the same port and data dir (for restart/durability tests). */
  readonly restart: () => Promise<void>
}

const waitForPort = async (port: number, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end()
        resolve(true)
      })
      socket.once("error", () => resolve(false))
    })
    if (ok) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`redis-server did not listen on ${port}`)
}

export interface StartRedisOptions {
  /**
   * More redis-server arguments, after the production settings: redis-server applies its
   * arguments in order, so these override them (e.g. `["--maxmemory-policy", "allkeys-lru"]`).
   */
  readonly extraArgs?: ReadonlyArray<string>
}

/**
 * A real redis-server from the system binary, on its own port and data dir, with the
 * production settings the service expects (AOF on, noeviction). `npm run setup` installs it.
 */
export const startRedis = async (options: StartRedisOptions = {}): Promise<RedisServer> => {
  const port = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-redis-"))
  let child: ChildProcess | undefined
  const launch = async () => {
    child = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--appendonly",
        "yes",
        "--appendfsync",
        "everysec",
        "--save",
        "",
        "--maxmemory-policy",
        "noeviction",
        "--daemonize",
        "no",
        "--logfile",
        path.join(dir, "redis.log"),
        ...(options.extraArgs ?? [])
      ],
      { stdio: "ignore" }
    )
    await waitForPort(port)
  }
  const stop = async () => {
    const c = child
    if (!c || c.exitCode !== null) return
    const exited = new Promise((r) => c.once("exit", r))
    c.kill("SIGTERM")
    await exited
  }
  await launch()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    stop,
    restart: async () => {
      await stop()
      await launch()
    }
  }
}

/** A redis-server of the test's own (e.g. one it stops), stopped with the scope. */
export const scopedRedis = (options: StartRedisOptions = {}) =>
  Effect.acquireRelease(
    Effect.promise(() => startRedis(options)),
    (server) => Effect.promise(server.stop)
  )

/** A redis:// URL on a free loopback port where nothing listens. */
export const unreachableRedisUrl = Effect.map(Effect.promise(freePort), (port) => `redis://127.0.0.1:${port}`)

/** Retries an operation while ioredis reconnects in the background after a restart. */
export const whileReconnecting = Schedule.intersect(Schedule.spaced("100 millis"), Schedule.recurs(50))

/** Empties `server` when built: provided beneath a layer under test, every test starts clean. */
export const flushedRedis = (server: () => RedisServer) =>
  Layer.effectDiscard(
    Effect.promise(async () => {
      const client = new Redis(server().url)
      await client.flushall()
      await client.quit()
    })
  )
