import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { SessionStore } from "../../../src/services/session-store/SessionStore.js"
import { EmbeddedSessionStore, ExpiringEntries } from "../../../src/services/session-store/EmbeddedSessionStore.js"
import { expectSameImage, image, session, sessionStoreConformance } from "./conformance.js"

sessionStoreConformance("embedded", () => EmbeddedSessionStore.layer)

// The map takes time as an argument, so these run on exact, hand-picked instants.
describe("ExpiringEntries", () => {
  const t0 = 1_700_000_000_000

  it("over budget, evicts the soonest-expiring entries first, counting a get's refresh", () => {
    const entries = new ExpiringEntries<string>(1000)
    entries.put("a", "a", 400, 10_000, t0)
    entries.put("b", "b", 400, 30_000, t0)
    entries.put("c", "c", 100, 20_000, t0)
    // "a" is used, so it now expires at t0 + 15 s: after "c", before "b".
    expect(entries.get("a", t0 + 5_000)).toBe("a")
    entries.put("d", "d", 400, 60_000, t0 + 5_000)
    expect(entries.usedBytes).toBe(900)
    expect([
      entries.get("a", t0 + 5_000),
      entries.get("b", t0 + 5_000),
      entries.get("c", t0 + 5_000),
      entries.get("d", t0 + 5_000)
    ]).toEqual([undefined, "b", "c", "d"])
  })

  it("evicts expired entries before live ones, and never the entry just put", () => {
    const entries = new ExpiringEntries<string>(1000)
    entries.put("long", "long", 500, 60_000, t0)
    entries.put("expired", "expired", 400, 1_000, t0)
    entries.put("short", "short", 500, 2_000, t0 + 5_000)
    expect(entries.usedBytes).toBe(1000)
    expect(entries.get("long", t0 + 5_000)).toBe("long")
    // The new entry expires first of all, yet a put must hold: the others make room.
    entries.put("shortest", "shortest", 600, 500, t0 + 5_000)
    expect(entries.usedBytes).toBe(600)
    expect(entries.get("shortest", t0 + 5_000)).toBe("shortest")
  })

  it("an overwrite replaces the old bytes instead of adding to them", () => {
    const entries = new ExpiringEntries<string>(1000)
    entries.put("other", "other", 500, 1_000, t0)
    for (let i = 0; i < 5; i++) entries.put("k", `v${i}`, 400, 60_000, t0)
    expect(entries.usedBytes).toBe(900)
    expect(entries.get("other", t0)).toBe("other")
    expect(entries.get("k", t0)).toBe("v4")
  })

  it("refuses an entry larger than the whole budget and keeps everything it had", () => {
    const entries = new ExpiringEntries<string>(1000)
    entries.put("k", "old", 600, 60_000, t0)
    expect(entries.put("k", "huge", 1001, 60_000, t0)).toBe(false)
    expect(entries.get("k", t0)).toBe("old")
    expect(entries.put("full", "fits", 1000, 60_000, t0)).toBe(true)
    expect(entries.usedBytes).toBe(1000)
  })

  it("expires at exactly ttl after the last use, and sweep frees expired bytes", () => {
    const entries = new ExpiringEntries<string>(1000)
    entries.put("a", "a", 300, 1_000, t0)
    entries.put("b", "b", 300, 5_000, t0)
    expect(entries.get("a", t0 + 999)).toBe("a")
    expect(entries.get("a", t0 + 1_998)).toBe("a")
    // Alive for exactly 1000 ms after its last use (t0 + 1998), not one more.
    entries.sweep(t0 + 2_997)
    expect(entries.usedBytes).toBe(600)
    entries.sweep(t0 + 2_998)
    expect(entries.usedBytes).toBe(300)
    expect(entries.get("a", t0 + 2_998)).toBeUndefined()
    expect(entries.get("b", t0 + 4_999)).toBe("b")
  })
})

describe("EmbeddedSessionStore", () => {
  const withBudget = (maxBytes: string) =>
    EmbeddedSessionStore.layer.pipe(
      Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["SESSION_STORE_MAX_BYTES", maxBytes]]))))
    )

  it.live("SESSION_STORE_MAX_BYTES bounds images and session JSON together", () =>
    Effect.gen(function* () {
      const store = yield* SessionStore
      const [soon, later] = [image(600), image(600)]
      yield* store.putImage(1, "soon", soon, 10)
      yield* store.putSession(1, "s", session("s"), 30)
      yield* store.putImage(1, "later", later, 20)
      expect(yield* store.getImage(1, "soon")).toBeNull()
      expectSameImage(yield* store.getImage(1, "later"), later)
      expect(yield* store.getSession(1, "s")).toEqual(session("s"))
      const error = yield* Effect.flip(store.putImage(1, "huge", image(1025), 60))
      expect(error.message).toContain("exceed the whole budget of 1024")
      expectSameImage(yield* store.getImage(1, "later"), later)
    }).pipe(Effect.provide(withBudget("1024")))
  )

  it.live("a budget that is not a positive integer fails the layer at startup", () =>
    Effect.gen(function* () {
      for (const bad of ["0", "-5", "lots"]) {
        const exit = yield* Effect.exit(Effect.provide(SessionStore, withBudget(bad)))
        expect(exit._tag).toBe("Failure")
      }
    })
  )
})
