import { HttpApiMiddleware, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Layer } from "effect"
import { Unauthorized } from "../domain/Errors.js"
import { Auth, type Principal } from "../services/auth/Auth.js"

/** Who is calling: the site comes from the credentials alone (spec, Authentication rule 4). */
export class CurrentPrincipal extends Context.Tag("CurrentPrincipal")<CurrentPrincipal, Principal>() {}

/**
 * Accepts both schemes on one Authorization header. The OpenAPI "security" mechanism is not
 * used because it picks one scheme per request; here the scheme decides the scope.
 */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Authentication", {
  failure: Unauthorized,
  provides: CurrentPrincipal
}) {}

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const auth = yield* Auth
    return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => auth.authenticate(request.headers["authorization"]))
  })
)
