import { Context, Effect } from "effect"
import { Forbidden, type Unauthorized } from "../../domain/Errors.js"

/** Who is calling: the site comes from the credentials alone (spec "Authentication"). */
export interface Principal {
  readonly siteId: number
  /** "site": Basic site credentials, may change data; "read": a read-only Bearer token. */
  readonly scope: "site" | "read"
  /** The username, or the token's `sub`, for logs and audit. */
  readonly subject: string
}

export const WWW_AUTHENTICATE = 'Bearer realm="commerce-search", Basic realm="commerce-search"'

/** "site" includes "read"; only a read-only token asking for "site" is refused. */
export const requireScope = (principal: Principal, scope: Principal["scope"]): Effect.Effect<void, Forbidden> =>
  scope === "site" && principal.scope !== "site"
    ? Effect.fail(
        new Forbidden({ message: "this operation needs site (Basic) credentials; a read-only token is not enough" })
      )
    : Effect.void

export interface AuthShape {
  readonly authenticate: (authorization: string | undefined) => Effect.Effect<Principal, Unauthorized>
}

export class Auth extends Context.Tag("Auth")<Auth, AuthShape>() {}
