import { Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Campaign, campaignResultsCount, normalizeQuery, Site, SitesFile } from "../../src/domain/Site.js"

const decodeCampaign = Schema.decodeUnknownEither(Campaign)
const secret = Buffer.alloc(32, 7).toString("base64")
const site = (id: number, usernames: Array<string>, extra: Partial<Record<string, unknown>> = {}) => ({
  id,
  name: `shop ${id}`,
  credentials: usernames.map((username) => ({
    username,
    passwordHash: "scrypt$16384$8$1$c2FsdA==$aGFzaA==",
    createdAt: "2025-01-01T00:00:00.000Z"
  })),
  tokenSecret: secret,
  defaultCampaign: 0,
  campaigns: [{ id: 0, resultsCount: 10 }],
  ...extra
})

describe("normalizeQuery", () => {
  it("lowercases, trims and collapses whitespace", () => {
    expect(normalizeQuery("  Red \t Running\n SHOES ")).toBe("red running shoes")
  })
})

describe("Campaign", () => {
  it("normalizes pin and redirect queries on decode", () => {
    const decoded = Schema.decodeUnknownSync(Campaign)({
      id: 2,
      resultsCount: 50,
      pins: [{ query: " Red  Shoes", productIds: ["p1"] }],
      redirects: [{ query: "SALE ", url: "https://shop.example/sale" }]
    })
    expect(decoded.pins?.[0].query).toBe("red shoes")
    expect(decoded.redirects?.[0].query).toBe("sale")
  })

  it.each([0, 1001, 2.5])("rejects resultsCount %s", (resultsCount) => {
    expect(Either.isLeft(decodeCampaign({ id: 1, resultsCount }))).toBe(true)
  })

  it("rejects a relative redirect url, a blank pin query and an empty pin", () => {
    expect(Either.isLeft(decodeCampaign({ id: 1, resultsCount: 5, redirects: [{ query: "x", url: "/sale" }] }))).toBe(
      true
    )
    expect(Either.isLeft(decodeCampaign({ id: 1, resultsCount: 5, pins: [{ query: "  ", productIds: ["a"] }] }))).toBe(
      true
    )
    expect(Either.isLeft(decodeCampaign({ id: 1, resultsCount: 5, pins: [{ query: "a", productIds: [] }] }))).toBe(true)
  })

  it("caps requested results at the campaign's count and defaults to it", () => {
    const campaign = Schema.decodeUnknownSync(Campaign)({ id: 0, resultsCount: 30 })
    expect(campaignResultsCount(campaign)).toBe(30)
    expect(campaignResultsCount(campaign, 10)).toBe(10)
    expect(campaignResultsCount(campaign, 500)).toBe(30)
  })
})

describe("Site and SitesFile", () => {
  const decodeSite = Schema.decodeUnknownEither(Site)
  const decodeFile = Schema.decodeUnknownEither(SitesFile)

  it("accepts a well-formed site", () => {
    expect(Either.isRight(decodeSite(site(1, ["s1-a"])))).toBe(true)
  })

  it("rejects a default campaign that does not exist, and duplicate campaign ids", () => {
    expect(Either.isLeft(decodeSite(site(1, [], { defaultCampaign: 4 })))).toBe(true)
    const twice = site(1, [], {
      campaigns: [
        { id: 0, resultsCount: 1 },
        { id: 0, resultsCount: 2 }
      ]
    })
    expect(Either.isLeft(decodeSite(twice))).toBe(true)
  })

  it("rejects a token secret shorter than 32 bytes and a non-scrypt password hash", () => {
    expect(Either.isLeft(decodeSite(site(1, [], { tokenSecret: Buffer.alloc(16).toString("base64") })))).toBe(true)
    const plain = { ...site(1, []), credentials: [{ username: "u", passwordHash: "hunter2", createdAt: "" }] }
    expect(Either.isLeft(decodeSite(plain))).toBe(true)
  })

  it("rejects a username shared by two sites, since the username alone selects the site", () => {
    expect(Either.isRight(decodeFile({ sites: [site(1, ["a"]), site(2, ["b"])] }))).toBe(true)
    expect(Either.isLeft(decodeFile({ sites: [site(1, ["a"]), site(2, ["a"])] }))).toBe(true)
    expect(Either.isLeft(decodeFile({ sites: [site(1, ["a"]), site(1, ["b"])] }))).toBe(true)
  })
})
