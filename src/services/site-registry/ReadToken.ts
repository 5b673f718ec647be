import { Effect } from "effect"
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from "jose"
import type { Site } from "../../domain/Site.js"
import { Unauthorized } from "../../domain/Errors.js"
import { randomToken } from "./Password.js"

export const TOKEN_ISSUER = "commerce-search"

/** The JWT `kid` names the site, so the verifier knows which secret to check against. */
export const siteKeyId = (siteId: number): string => `site-${siteId}`

const secretKey = (site: Site): Uint8Array => Buffer.from(site.tokenSecret, "base64")

/** A read-only (scope "read") HS256 token for the site, valid for `ttlSeconds`. */
export const mintReadToken = (site: Site, ttlSeconds: number): Promise<string> => {
  if (!(ttlSeconds > 0)) return Promise.reject(new RangeError(`token lifetime must be positive, got ${ttlSeconds}`))
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ site: site.id, scope: "read" })
    .setProtectedHeader({ alg: "HS256", kid: siteKeyId(site.id) })
    .setIssuer(TOKEN_ISSUER)
    .setSubject(`read-token:${randomToken(9)}`)
    .setIssuedAt(now)
    .setExpirationTime(now + Math.floor(ttlSeconds))
    .sign(secretKey(site))
}

/** The site a token claims to belong to (from its unverified `kid`), to pick the secret. */
export const tokenSiteId = (token: string): Effect.Effect<number, Unauthorized> =>
  Effect.try({
    try: () => decodeProtectedHeader(token),
    catch: () => new Unauthorized({ message: "malformed bearer token: expected a JWT" })
  }).pipe(
    Effect.flatMap(({ kid }) => {
      const match = /^site-([1-9]\d*)$/.exec(kid ?? "")
      return match
        ? Effect.succeed(Number(match[1]))
        : Effect.fail(new Unauthorized({ message: "bearer token has no site key id (kid)" }))
    })
  )

const explain = (e: unknown): string => {
  if (e instanceof errors.JWTExpired) return "bearer token has expired"
  if (e instanceof errors.JWSSignatureVerificationFailed) return "bearer token signature is invalid"
  if (e instanceof errors.JWTClaimValidationFailed) return `bearer token rejected: ${e.message}`
  if (e instanceof errors.JOSEAlgNotAllowed) return "bearer token must be signed with HS256"
  return "malformed bearer token"
}

/** What a verified read token says: its subject, and when it expires (ms since the epoch). */
export interface VerifiedToken {
  readonly subject: string
  readonly expiresAt: number
}

/** Checks signature, expiry, issuer and claims against `site`. */
export const verifyReadToken = (token: string, site: Site): Effect.Effect<VerifiedToken, Unauthorized> =>
  Effect.tryPromise({
    try: () =>
      jwtVerify(token, secretKey(site), {
        issuer: TOKEN_ISSUER,
        algorithms: ["HS256"],
        requiredClaims: ["exp", "sub", "site", "scope"]
      }),
    catch: (e) => new Unauthorized({ message: explain(e) })
  }).pipe(
    Effect.flatMap(({ payload }) =>
      payload.site !== site.id
        ? Effect.fail(new Unauthorized({ message: "bearer token site claim does not match its key id" }))
        : payload.scope !== "read"
          ? Effect.fail(new Unauthorized({ message: 'bearer token scope must be "read"' }))
          : Effect.succeed({ subject: payload.sub!, expiresAt: payload.exp! * 1000 })
    )
  )

/** "30d", "12h", "15m", "45s" or plain seconds; undefined when unreadable. */
export const parseTtl = (text: string): number | undefined => {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim())
  if (!match) return undefined
  const seconds = Number(match[1]) * { "": 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as "" | "s" | "m" | "h" | "d"]
  return seconds > 0 ? seconds : undefined
}
