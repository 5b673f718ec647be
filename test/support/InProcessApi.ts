import { HttpServer } from "@effect/platform"
import { Context, Effect, Exit, Layer, Logger, LogLevel, Scope } from "effect"
import { App } from "../../src/App.js"
import { ioFairScheduler } from "../../src/platform/IoFairScheduler.js"
import type { Campaign } from "../../src/domain/Site.js"
import { waitUntilReady } from "./Http.js"
import type { SettingValues } from "./Settings.js"
import { makeWorkspace, type Workspace } from "./Workspace.js"

/** The services of the running api, for work done behind its HTTP interface. */
export type AppServices = Layer.Layer.Success<typeof App>

/** The real api (src/App.ts) running in this process on its own workspace. */
export interface InProcessApi extends Workspace {
  readonly baseUrl: string
  /** Runs an effect against the api's own services (store, index, analyser), in this process. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, AppServices>) => Promise<A>
  /** Stops the api and deletes its workspace (unless `keepDir`). */
  readonly close: () => Promise<void>
}

export interface InProcessApiOptions {
  readonly campaigns?: ReadonlyArray<Campaign>
  /** Settings over the workspace's (one embedding thread unless set). */
  readonly config?: SettingValues
  /** Let the environment fill unlisted settings (the bench), instead of their defaults. */
  readonly overEnv?: boolean
  readonly logLevel?: LogLevel.LogLevel
  readonly prefix?: string
  readonly keepDir?: boolean
}

/**
 * The api's real layers listening on a random loopback port, with a fresh workspace, ready
 * (GET /readyz) when this resolves. Tests use it as their server; the bench measures it.
 */
export const startInProcessApi = async (options: InProcessApiOptions = {}): Promise<InProcessApi> => {
  const workspace = await makeWorkspace({ prefix: options.prefix, campaigns: options.campaigns })
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(
      App.pipe(
        Layer.provide(workspace.config(options.config, { overEnv: options.overEnv })),
        Layer.provide(Logger.minimumLogLevel(options.logLevel ?? LogLevel.None))
      ),
      scope
    ).pipe(Effect.withScheduler(ioFairScheduler))
  )
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const baseUrl = `http://127.0.0.1:${address.port}`
  await waitUntilReady(baseUrl, 120_000)
  return {
    ...workspace,
    baseUrl,
    run: (effect) => Effect.runPromise(Effect.provide(effect, context)),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      if (!options.keepDir) workspace.dispose()
    }
  }
}
