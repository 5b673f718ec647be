import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { MemoryItemInput, MemoryLogService } from "../../../src/services/memory-log/MemoryLog.js"

/** Registers one test that runs `body` against a fresh layer. */
export type MemoryTest = (
  title: string,
  body: (log: MemoryLogService) => Effect.Effect<void, unknown>,
  timeout?: number
) => void

export const user = (content: string, metadata?: Record<string, unknown>): MemoryItemInput =>
  metadata ? { role: "user", content, metadata } : { role: "user", content }
export const assistant = (content: string, metadata?: Record<string, unknown>): MemoryItemInput =>
  metadata ? { role: "assistant", content, metadata } : { role: "assistant", content }

export const rejects = (effect: Effect.Effect<unknown, unknown>, field: string) =>
  Effect.flip(effect).pipe(Effect.map((error) => expect(error).toMatchObject({ _tag: "MemoryRejected", field })))

export const contents = (items: ReadonlyArray<{ readonly content: string }>) => items.map((i) => i.content)
export const positions = (items: ReadonlyArray<{ readonly position: number }>) => items.map((i) => i.position)
