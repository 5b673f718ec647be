import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { MemoryLog } from "../../../src/services/memory-log/MemoryLog.js"
import { repoRoot } from "../../support/EntryPoint.js"
import { memoryLogConformance } from "./conformance.js"
import { embeddedMemoryLogLayer } from "./fixtures/layer.js"

memoryLogConformance("embedded", () => embeddedMemoryLogLayer())

/** Runs the appending child until `ack` items are acknowledged, then SIGKILLs it mid-stream. */
const appendThenKill = (dataDir: string, ack: number) =>
  new Promise<Array<string>>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/services/memory-log/fixtures/append-child.ts", dataDir],
      { cwd: repoRoot }
    )
    let buffered = ""
    let errors = ""
    const lines: Array<string> = []
    child.stdout.on("data", (chunk) => {
      buffered += chunk
      const complete = buffered.split("\n")
      buffered = complete.pop()!
      lines.push(...complete)
      if (lines.length >= ack && child.exitCode === null) child.kill("SIGKILL")
    })
    child.stderr.on("data", (chunk) => (errors += chunk))
    child.once("exit", (_code, signal) =>
      signal === "SIGKILL" ? resolve(lines) : reject(new Error(`child exited: ${errors}`))
    )
  })

/** Opens the killed child's data dir again and checks everything it acknowledged. */
const afterRestart = (acknowledged: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const log = yield* MemoryLog
    const summary = yield* log.summary(1, "durable")
    const length = summary!.length
    expect(length).toBeGreaterThanOrEqual(acknowledged.length)
    const stored = (yield* Effect.forEach(Array.from({ length: Math.ceil(length / 1000) }), (_, page) =>
      log.replay(1, "durable", page * 1000, 1000)
    )).flat()
    expect(stored.map((item) => item.position)).toEqual(Array.from({ length }, (_, i) => i))
    const storedLines = new Set(stored.map((item) => `${item.position} ${item.content}`))
    expect(acknowledged.filter((line) => !storedLines.has(line))).toEqual([])
    // What the summary folded is what the log holds: both were in the same transactions.
    expect(summary!.lastUser).toBe(stored[length - 1].content)
    // Idempotency keys survived too: re-sending the first batch stores nothing.
    expect(yield* log.append(1, "durable", [{ role: "user", content: "item-0-0" }], "k0")).toEqual({
      positions: [0],
      duplicate: true,
      length: 1
    })
  })

describe("EmbeddedMemoryLog durability", () => {
  it.live(
    "every append acknowledged before SIGKILL is there after a restart, in one order",
    () =>
      Effect.gen(function* () {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-memory-kill-"))
        const acknowledged = yield* Effect.promise(() => appendThenKill(dataDir, 3000))
        expect(acknowledged.length).toBeGreaterThanOrEqual(3000)
        yield* afterRestart(acknowledged).pipe(Effect.provide(embeddedMemoryLogLayer(dataDir)))
      }),
    60_000
  )
})
