import { createHash } from "node:crypto"
import { Effect, Layer } from "effect"
import { Unauthorized } from "../../domain/Errors.js"
import { LruCache } from "../../platform/LruCache.js"
import { SiteRegistry } from "../site-registry/SiteRegistry.js"
import { Auth, type Principal } from "./Auth.js"
import { hashPassword, randomToken, verifyPassword } from "../site-registry/Password.js"
import { tokenSiteId, verifyReadToken } from "../site-registry/ReadToken.js"

const CACHE_CAPACITY = 10_000

const unauthorized = (message: string) => Effect.fail(new Unauthorized({ message }))

const parseBasic = (encoded: string): { username: string; password: string } | undefined => {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined
  const text = Buffer.from(encoded, "base64").toString("utf8")
  const colon = text.indexOf(":")
  return colon > 0 ? { username: text.slice(0, colon), password: text.slice(colon + 1) } : undefined
}

interface CredentialIndex {
  readonly generation: number
  readonly byUsername: ReadonlyMap<string, { readonly siteId: number; readonly passwordHash: string }>
}

/** Checks credentials against the SiteRegistry in this process, caching what it verified. */
export const EmbeddedAuth: { readonly layer: Layer.Layer<Auth, never, SiteRegistry> } = {
  layer: Layer.effect(
    Auth,
    Effect.gen(function* () {
      const registry = yield* SiteRegistry
      // Unknown usernames are checked against a throwaway hash, so they take as long as a
      // wrong password and valid usernames cannot be discovered by timing.
      const decoy = yield* hashPassword(randomToken(18))
      // scrypt is slow on purpose; a client repeating good credentials must not pay it on
      // every request. Keys are SHA-256 digests so no password sits in memory as a key.
      const verified = new LruCache<string, Principal>(CACHE_CAPACITY)
      let index: CredentialIndex = { generation: -1, byUsername: new Map() }

      // A reload may remove or change credentials, so it drops every cached verification.
      const currentIndex = Effect.gen(function* () {
        const generation = yield* registry.generation
        if (generation !== index.generation) {
          const sites = yield* registry.all
          verified.clear()
          index = {
            generation,
            byUsername: new Map(
              sites.flatMap((s) =>
                s.credentials.map((c) => [c.username, { siteId: s.id, passwordHash: c.passwordHash }] as const)
              )
            )
          }
        }
        return index
      })

      const basic = (encoded: string) =>
        Effect.gen(function* () {
          const { byUsername, generation } = yield* currentIndex
          const key = createHash("sha256").update(encoded).digest("base64")
          const hit = verified.get(key)
          if (hit) return hit
          const given = parseBasic(encoded)
          if (!given) return yield* unauthorized("malformed Basic credentials: expected base64(username:password)")
          const stored = byUsername.get(given.username)
          const ok = yield* verifyPassword(given.password, stored?.passwordHash ?? decoy)
          if (!ok || !stored) return yield* unauthorized("invalid username or password")
          const principal: Principal = { siteId: stored.siteId, scope: "site", subject: given.username }
          // A reload during the slow check may have revoked this credential: cache only if none happened.
          if (index.generation === generation) verified.set(key, principal)
          return principal
        })

      // A front end sends the same token with every request, and HS256 through WebCrypto costs
      // a thread-pool round trip: a verified token is remembered, with the
      // secret it was verified against (a rotated secret voids it) and its expiry (checked on use).
      const tokens = new LruCache<
        string,
        { readonly secret: string; readonly expiresAt: number; readonly principal: Principal }
      >(CACHE_CAPACITY)
      const bearer = (token: string) =>
        tokenSiteId(token).pipe(
          Effect.flatMap((siteId) =>
            registry
              .get(siteId)
              .pipe(Effect.mapError(() => new Unauthorized({ message: `bearer token names unknown site ${siteId}` })))
          ),
          Effect.flatMap((site) => {
            const known = tokens.get(token)
            if (known !== undefined && known.secret === site.tokenSecret && known.expiresAt > Date.now())
              return Effect.succeed(known.principal)
            return verifyReadToken(token, site).pipe(
              Effect.map(({ subject, expiresAt }): Principal => {
                const principal: Principal = { siteId: site.id, scope: "read", subject }
                tokens.set(token, { secret: site.tokenSecret, expiresAt, principal })
                return principal
              })
            )
          })
        )

      return {
        authenticate: (authorization) => {
          const header = authorization?.trim()
          if (!header) return unauthorized("missing Authorization header")
          const match = /^(\S+)\s+(\S+)$/.exec(header)
          if (!match) return unauthorized('malformed Authorization header: expected "<scheme> <credentials>"')
          const scheme = match[1].toLowerCase()
          if (scheme === "basic") return basic(match[2])
          if (scheme === "bearer") return bearer(match[2])
          return unauthorized(`unsupported authorization scheme "${match[1].slice(0, 32)}"; use Bearer or Basic`)
        }
      }
    })
  )
}
