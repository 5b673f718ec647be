import type { HttpServerRequest } from "@effect/platform"
import { Config, Effect } from "effect"
import type { RateLimits } from "../../domain/Site.js"
import type { Principal } from "../auth/Auth.js"
import type { RateDecision, RateLimiterService } from "./RateLimiter.js"

/**
 * REST request budgets per credential (a burst of this many, refilled over the window); a
 * site's `rateLimits` in the sites file overrides them. Read-only tokens are public (shops
 * publish them in front ends and registry entries), so their budget is per token AND client
 * address; site credentials are secret, so theirs is per credential, sized for bulk pushes.
 */
export const RestRateLimit = Config.all({
  site: Config.integer("REST_RATE_LIMIT_SITE").pipe(Config.withDefault(60_000)),
  read: Config.integer("REST_RATE_LIMIT_READ").pipe(Config.withDefault(1_200)),
  windowMs: Config.integer("REST_RATE_WINDOW_MS").pipe(Config.withDefault(60_000)),
  /** Reverse proxies in front of the service: the client is that many addresses from the right of X-Forwarded-For. */
  trustedProxyHops: Config.integer("TRUSTED_PROXY_HOPS").pipe(Config.withDefault(0))
}).pipe(
  Config.validate({
    message:
      "REST_RATE_LIMIT_SITE, REST_RATE_LIMIT_READ and REST_RATE_WINDOW_MS must be positive, " +
      "TRUSTED_PROXY_HOPS at least 0",
    validation: (c) => c.site > 0 && c.read > 0 && c.windowMs > 0 && c.trustedProxyHops >= 0
  })
)
export type RestRateLimit = Config.Config.Success<typeof RestRateLimit>

/**
 * The address of the client: the socket's peer, or with `hops` trusted proxies in front, the
 * address the outermost of them saw (each proxy appends its peer to X-Forwarded-For, so the
 * entries a client wrote itself are further left and never chosen).
 */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, hops: number): string => {
  const peer = request.remoteAddress._tag === "Some" ? request.remoteAddress.value : "unknown"
  if (hops === 0) return peer
  const forwarded = (request.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "")
  return forwarded[forwarded.length - hops] ?? forwarded[0] ?? peer
}

/** The REST budget a principal's request counts against: its key, burst size and window. */
export const restBudget = (
  principal: Principal,
  address: string,
  defaults: RestRateLimit,
  site: RateLimits | undefined
) => ({
  key:
    principal.scope === "read"
      ? `rest:${principal.siteId}:${principal.subject}:${address}`
      : `rest:${principal.siteId}:${principal.subject}`,
  limit: (principal.scope === "read" ? site?.read : site?.site) ?? defaults[principal.scope],
  windowMs: site?.windowMs ?? defaults.windowMs
})

/**
 * Counts one request, failing open: when the limiter's backend (Redis) is unreachable the
 * request is allowed and a warning logged, so a limiter outage never takes reads down.
 */
export const consumeFailingOpen = (
  limiter: RateLimiterService,
  key: string,
  limit: number,
  windowMs: number
): Effect.Effect<RateDecision | null> =>
  limiter
    .consume(key, limit, windowMs)
    .pipe(
      Effect.catchAll((e) =>
        Effect.logWarning("rate limiter unavailable; allowing the request", e.message).pipe(Effect.as(null))
      )
    )

/** Whole seconds to wait, at least 1 (Retry-After has no fractions). */
export const retryAfterSeconds = (decision: RateDecision): number =>
  Math.max(1, Math.ceil(decision.retryAfterMs / 1000))
