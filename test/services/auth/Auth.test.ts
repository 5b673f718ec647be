import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { SignJWT } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Site } from "../../../src/domain/Site.js"
import { Auth, type Principal, requireScope } from "../../../src/services/auth/Auth.js"
import { EmbeddedAuth } from "../../../src/services/auth/EmbeddedAuth.js"
import { mintReadToken } from "../../../src/services/site-registry/ReadToken.js"
import { basicAuthorization, createSite, type IssuedCredential } from "../../../src/services/site-registry/SiteAdmin.js"
import { EmbeddedSiteRegistry } from "../../../src/services/site-registry/EmbeddedSiteRegistry.js"
import { eventually } from "../../support/Eventually.js"

let runtime: ManagedRuntime.ManagedRuntime<Auth, never>
let siteA: Site
let siteB: Site
let userA: IssuedCredential

beforeAll(async () => {
  const a = await Effect.runPromise(createSite({ sites: [] }, "A"))
  const b = await Effect.runPromise(createSite(a.file, "B"))
  ;[siteA, siteB] = b.file.sites
  userA = a.issued
  runtime = ManagedRuntime.make(EmbeddedAuth.layer.pipe(Layer.provide(EmbeddedSiteRegistry.fromSites(b.file.sites))))
})
afterAll(() => runtime.dispose())

const authenticate = (header: string | undefined) =>
  runtime.runPromise(Effect.flatMap(Auth, (auth) => auth.authenticate(header)).pipe(Effect.either))

const rejection = async (header: string | undefined): Promise<string> => {
  const result = await authenticate(header)
  if (Either.isRight(result)) throw new Error(`expected rejection, got ${JSON.stringify(result.right)}`)
  expect(result.left._tag).toBe("Unauthorized")
  return result.left.message
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
const part = (token: string, i: number) => JSON.parse(Buffer.from(token.split(".")[i], "base64url").toString())
const withPart = (token: string, i: number, value: unknown) =>
  token
    .split(".")
    .map((p, j) => (j === i ? b64url(value) : p))
    .join(".")

/** A token shaped like ours, for claims mintReadToken would never produce. */
const craft = (claims: Record<string, unknown>, secret: string, kid: string) =>
  new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid }).sign(Buffer.from(secret, "base64"))
const now = () => Math.floor(Date.now() / 1000)

describe("Basic site credentials", () => {
  it("authenticate as the site with site scope, whatever the scheme's case", async () => {
    const expected = { siteId: siteA.id, scope: "site", subject: userA.username }
    expect(await authenticate(basicAuthorization(userA))).toEqual(Either.right(expected))
    expect(await authenticate(basicAuthorization(userA).replace("Basic", "bASIC"))).toEqual(Either.right(expected))
  })

  it("reject a wrong password and an unknown user with the same message", async () => {
    const wrong = await rejection(basicAuthorization({ ...userA, password: `${userA.password}x` }))
    const unknown = await rejection(basicAuthorization({ username: "nobody", password: userA.password }))
    expect(wrong).toBe("invalid username or password")
    expect(unknown).toBe(wrong)
  })

  it("reject text that is not base64(username:password)", async () => {
    expect(await rejection("Basic %%%not-base64%%%")).toMatch(/malformed Basic credentials/)
    expect(await rejection(`Basic ${Buffer.from("no-colon").toString("base64")}`)).toMatch(/malformed Basic/)
  })

  it("answer repeated good credentials from the cache in microseconds", async () => {
    const header = basicAuthorization(userA)
    await authenticate(header)
    const started = performance.now()
    for (let i = 0; i < 200; i++) expect(Either.isRight(await authenticate(header))).toBe(true)
    // 200 scrypt checks would take seconds; cached ones are far below a millisecond each.
    expect((performance.now() - started) / 200).toBeLessThan(1)
  })
})

describe("the Authorization header", () => {
  it.each([
    [undefined, /missing/],
    ["", /missing/],
    ["Digest abc", /unsupported authorization scheme "Digest"/],
    ["Bearer", /malformed Authorization header/]
  ])("%j is rejected", async (header, message) => {
    expect(await rejection(header)).toMatch(message)
  })
})

describe("Bearer read-only tokens", () => {
  it("authenticate as the signing site with read scope", async () => {
    const token = await mintReadToken(siteB, 60)
    const result = await authenticate(`bearer ${token}`)
    expect(Either.getOrThrow(result)).toMatchObject({ siteId: siteB.id, scope: "read" })
    expect(Either.getOrThrow(result).subject).toBe(part(token, 1).sub)
  })

  it("are rejected once expired", async () => {
    const token = await craft(
      { site: siteA.id, scope: "read", sub: "t", iss: "commerce-search", exp: now() - 5 },
      siteA.tokenSecret,
      "site-1"
    )
    expect(await rejection(`Bearer ${token}`)).toBe("bearer token has expired")
  })

  it("are rejected without exp, with another issuer or with another scope", async () => {
    const claims = { site: siteA.id, scope: "read", sub: "t", iss: "commerce-search", exp: now() + 60 }
    const { exp: _, ...noExp } = claims
    expect(await rejection(`Bearer ${await craft(noExp, siteA.tokenSecret, "site-1")}`)).toMatch(/"exp"/)
    expect(await rejection(`Bearer ${await craft({ ...claims, iss: "x" }, siteA.tokenSecret, "site-1")}`)).toMatch(
      /"iss"/
    )
    expect(await rejection(`Bearer ${await craft({ ...claims, scope: "site" }, siteA.tokenSecret, "site-1")}`)).toMatch(
      /scope must be "read"/
    )
  })

  it("are rejected when signed with another secret or when the payload was altered", async () => {
    const forged = await craft(
      { site: siteA.id, scope: "read", sub: "t", iss: "commerce-search", exp: now() + 60 },
      Buffer.alloc(32, 1).toString("base64"),
      "site-1"
    )
    expect(await rejection(`Bearer ${forged}`)).toBe("bearer token signature is invalid")
    const token = await mintReadToken(siteA, 60)
    const longer = withPart(token, 1, { ...part(token, 1), exp: now() + 10 ** 8 })
    expect(await rejection(`Bearer ${longer}`)).toBe("bearer token signature is invalid")
  })

  it("of site A cannot pass as site B", async () => {
    const token = await mintReadToken(siteA, 60)
    const kidSwapped = withPart(token, 0, { ...part(token, 0), kid: "site-2" })
    expect(await rejection(`Bearer ${kidSwapped}`)).toBe("bearer token signature is invalid")
    // Even a token signed with B's secret must not claim site A.
    const claimsA = await craft(
      { site: siteA.id, scope: "read", sub: "t", iss: "commerce-search", exp: now() + 60 },
      siteB.tokenSecret,
      "site-2"
    )
    expect(await rejection(`Bearer ${claimsA}`)).toMatch(/site claim does not match/)
  })

  it("are rejected when malformed or naming an unknown site", async () => {
    expect(await rejection("Bearer not.a.jwt")).toMatch(/malformed bearer token/)
    const token = await mintReadToken({ ...siteA, id: 99 }, 60)
    expect(await rejection(`Bearer ${token}`)).toBe("bearer token names unknown site 99")
  })

  it("are verified once while valid, and rejected once expired even after they were accepted", async () => {
    const token = await craft(
      // Three seconds: `exp` counts whole seconds, and a loaded machine may pass one boundary
      // between crafting and the first check (one second left it already expired there).
      { site: siteA.id, scope: "read", sub: "short", iss: "commerce-search", exp: now() + 3 },
      siteA.tokenSecret,
      "site-1"
    )
    expect(Either.getOrThrow(await authenticate(`Bearer ${token}`)).subject).toBe("short")
    expect(Either.getOrThrow(await authenticate(`Bearer ${token}`)).subject).toBe("short")
    await eventually(async () => expect(await rejection(`Bearer ${token}`)).toBe("bearer token has expired"), 15_000)
  })

  it("cannot be minted with a non-positive lifetime", async () => {
    await expect(mintReadToken(siteA, 0)).rejects.toThrow(RangeError)
  })
})

describe("requireScope", () => {
  const reader: Principal = { siteId: 1, scope: "read", subject: "t" }
  const owner: Principal = { siteId: 1, scope: "site", subject: "u" }
  const check = (p: Principal, scope: Principal["scope"]) => Effect.runSync(Effect.either(requireScope(p, scope)))

  it("lets site credentials do everything and read tokens only read", () => {
    expect(Either.isRight(check(owner, "site"))).toBe(true)
    expect(Either.isRight(check(owner, "read"))).toBe(true)
    expect(Either.isRight(check(reader, "read"))).toBe(true)
    const denied = check(reader, "site")
    expect(Either.isLeft(denied) && denied.left._tag).toBe("Forbidden")
    expect(Either.isLeft(denied) && denied.left.message).toMatch(/needs site \(Basic\) credentials/)
  })
})
