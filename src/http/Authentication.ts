import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Layer, Schema } from "effect"
import { TooManyRequests, Unauthorized } from "../domain/Errors.js"
import { Auth, type Principal } from "../services/auth/Auth.js"
import {
  clientAddress,
  consumeFailingOpen,
  restBudget,
  RestRateLimit,
  retryAfterSeconds
} from "../services/rate-limiter/Admission.js"
import { RateLimiter } from "../services/rate-limiter/RateLimiter.js"
import { SiteRegistry } from "../services/site-registry/SiteRegistry.js"

/** Who is calling: the site comes from the credentials alone (spec, Authentication rule 4). */
export class CurrentPrincipal extends Context.Tag("CurrentPrincipal")<CurrentPrincipal, Principal>() {}

/**
 * Accepts both schemes on one Authorization header, then counts the request against the
 * credential's rate limit. The OpenAPI "security" mechanism is not used because it picks one
 * scheme per request; here the scheme decides the scope.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Schema.Union(Unauthorized, TooManyRequests),
  provides: CurrentPrincipal
}) {}

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const auth = yield* Auth
    const limiter = yield* RateLimiter
    const sites = yield* SiteRegistry
    const defaults = yield* RestRateLimit
    return Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const principal = yield* auth.authenticate(request.headers.authorization)
      const site = yield* Effect.orElseSucceed(sites.get(principal.siteId), () => undefined)
      const budget = restBudget(
        principal,
        clientAddress(request, defaults.trustedProxyHops),
        defaults,
        site?.rateLimits
      )
      const decision = yield* consumeFailingOpen(limiter, budget.key, budget.limit, budget.windowMs)
      if (decision !== null && !decision.allowed) {
        const seconds = retryAfterSeconds(decision)
        return yield* new TooManyRequests({
          message:
            `rate limit exceeded: ${budget.limit} requests per ${budget.windowMs / 1000} s for this ` +
            `${principal.scope === "read" ? "token and client" : "credential"}; retry after ${seconds} s`,
          retryAfterSeconds: seconds
        })
      }
      return principal
    })
  })
)
