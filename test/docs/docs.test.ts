import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { repoRoot } from "../support/EntryPoint.js"
import type { LoopbackHost } from "../support/LoopbackHost.js"
import { productShot, startPhotoHost } from "../support/ProductShots.js"
import { type ServerProcess, startServerProcess } from "../support/ServerProcess.js"
import { expectation, type ShellBlock, shellBlocks } from "./DocBlocks.js"
import { ShellSession } from "./ShellSession.js"

/**
 * Every shell example of the README and docs/ runs here, in reading order, against one real
 * server started on a fresh data directory as `npm start` starts it; each documented answer
 * (`# → ...`, see DocBlocks.ts) is checked. Blocks marked `<!-- not run: reason -->` are
 * skipped. DOCS_TEST_DUMP=<file> writes every answer as the server gave it, for editing the docs.
 */

/** The README first, then docs/ in the order a reader goes on. */
const PAGES = [
  "README.md",
  "docs/api.md",
  "docs/configuration.md",
  "docs/console.md",
  "docs/operations.md",
  "docs/architecture.md",
  "docs/figures.md"
]

/** The shop's image host of the examples, served here (the service may fetch loopback addresses for this test). */
const IMAGE_HOST = "https://img.example.com/"
/** Where the examples reach the service. */
const SERVICE = "localhost:8080"

const BLOCK_TIMEOUT_MS = 150_000

const read = (page: string) => fs.readFileSync(path.join(repoRoot, page), "utf8")

describe("the README and docs/", () => {
  it("list every page of docs/ in the test's reading order", () => {
    const pages = fs
      .readdirSync(path.join(repoRoot, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`)
    expect(pages.filter((p) => !PAGES.includes(p))).toEqual([])
  })

  it("link only to files and headings that exist", () => {
    const problems: Array<string> = []
    for (const page of PAGES) {
      const text = read(page).replace(/^(```|~~~)[\s\S]*?^\1/gm, "")
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]
        if (/^[a-z]+:/i.test(target)) continue
        const [file, anchor] = target.split("#")
        const resolved = file === "" ? page : path.normalize(path.join(path.dirname(page), file))
        if (!fs.existsSync(path.join(repoRoot, resolved))) {
          problems.push(`${page}: ${target}: no such file`)
          continue
        }
        if (anchor !== undefined && !headingAnchors(read(resolved)).has(anchor))
          problems.push(`${page}: ${target}: no such heading in ${resolved}`)
      }
    }
    expect(problems).toEqual([])
  })

  describe("examples, run against a fresh server", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docs-test-"))
    const work = path.join(dir, "work")
    const scratch = path.join(dir, "scratch")
    let server: ServerProcess
    let photos: LoopbackHost

    beforeAll(async () => {
      fs.mkdirSync(work)
      fs.mkdirSync(scratch)
      // A reader's own photos, for the visual-search examples.
      fs.writeFileSync(path.join(work, "photo.jpg"), await productShot(200, 30, 40))
      fs.writeFileSync(path.join(work, "photo-large.jpg"), await productShot(190, 25, 35))
      const [red, blue] = await Promise.all([productShot(210, 20, 20), productShot(30, 60, 210)])
      photos = await startPhotoHost(
        new Map([
          ["/mug-red.jpg", red],
          ["/mug-blue.jpg", blue]
        ])
      )
      server = await startServerProcess({
        DATA_DIR: path.join(dir, "data"),
        SITES_FILE: path.join(dir, "sites.json"),
        IMAGE_ALLOW_PRIVATE_URLS: "true",
        // The defaults `npm start` runs with (the test helper's own default is one thread).
        EMBED_THREADS: "2"
      })
    })

    afterAll(async () => {
      if (server) {
        server.child.kill("SIGTERM")
        await server.exited
      }
      await photos?.close()
      fs.rmSync(dir, { recursive: true, force: true })
    })

    it("give the documented answers, in order", async () => {
      const printed = server.output()
      const basic = /Authorization: (Basic \S+)/.exec(printed)?.[1]
      const bearer = /Authorization: (Bearer \S+)/.exec(printed)?.[1]
      expect(basic, `first start prints the demo site's credentials:\n${printed.slice(0, 2000)}`).toBeDefined()
      expect(bearer).toBeDefined()

      const service = server.baseUrl.replace(/^http:\/\//, "")
      const toServer = (text: string) => text.replaceAll(SERVICE, service).replaceAll(IMAGE_HOST, `${photos.base}/`)
      const toReader = (text: string) =>
        text
          .replaceAll(`${photos.base}/`, IMAGE_HOST)
          .replaceAll(`http://${service}`, `http://${SERVICE}`)
          .replaceAll(service, SERVICE)

      const blocks: Array<ShellBlock> = []
      const layoutProblems: Array<string> = []
      for (const page of PAGES) {
        const found = shellBlocks(page, read(page))
        blocks.push(...found.blocks)
        layoutProblems.push(...found.errors)
      }
      expect(layoutProblems).toEqual([])
      const runnable = blocks.filter((b) => b.notRun === undefined)
      expect(runnable.filter((b) => b.file === "README.md").length).toBeGreaterThanOrEqual(8)
      // Marking an example "not run" is for what cannot run here, not a way around this test.
      expect(blocks.length - runnable.length).toBeLessThan(runnable.length / 2)

      const dump = process.env.DOCS_TEST_DUMP
      if (dump) fs.writeFileSync(dump, "")
      const shell = ShellSession.start({
        cwd: work,
        scratch,
        repo: repoRoot,
        env: {
          ...(process.env as Record<string, string>),
          BASIC: basic!,
          BEARER: bearer!,
          // The reader's CLI and server share a checkout's settings: the sites file and the data dir.
          SITES_FILE: path.join(dir, "sites.json"),
          DATA_DIR: path.join(dir, "data")
        }
      })
      const problems: Array<string> = []
      try {
        for (const block of runnable) {
          const run = await shell.run(
            block.segments.map((s) => toServer(s.commands)),
            BLOCK_TIMEOUT_MS
          )
          block.segments.forEach((segment, i) => {
            const result = run.segments[i]
            if (result === undefined) return
            const output = toReader(result.output)
            if (dump)
              fs.appendFileSync(dump, `--- ${block.file}:${segment.line} ${result.statuses.join(" ")}\n${output}\n`)
            const problem = checkSegment(segment.expected, output, result.statuses)
            if (problem) problems.push(`${block.file}:${segment.line}: ${problem}\n${indent(segment.commands)}`)
          })
          if (run.failure) {
            problems.push(
              `${block.file}:${block.line}: the block failed: ${toReader(run.failure)}\n${indent(toReader(run.stderr))}`
            )
            break
          }
        }
      } finally {
        await shell.close()
      }
      expect(problems.join("\n\n")).toBe("")
    }, 420_000)
  })
})

const indent = (text: string) =>
  text
    .trim()
    .split("\n")
    .slice(0, 12)
    .map((l) => `    | ${l}`)
    .join("\n")

/** A segment's output and statuses against its documented answer (or, undocumented, against success). */
const checkSegment = (documented: string | undefined, output: string, statuses: ReadonlyArray<string>) => {
  const calls = statuses.filter((s) => s !== "-")
  const last = statuses.at(-1)
  const earlier = documented === undefined ? calls : statuses.slice(0, -1).filter((s) => s !== "-")
  const failed = earlier.find((s) => !/^[123]\d\d$/.test(s))
  if (failed) return `a curl call answered ${failed}, which the example does not show`
  if (documented === undefined) return undefined
  const expected = expectation(documented)
  if (last !== undefined && last !== "-") {
    if (expected.status === undefined) return `the answer must start with the HTTP status (${last})`
    if (Number(last) !== expected.status) return `expected status ${expected.status}, got ${last}:\n${clip(output)}`
  } else if (expected.status !== undefined && statuses.length === 0) {
    return `the answer names status ${expected.status}, but no curl call was made`
  }
  const problem = expected.check(output)
  return problem ? `${problem}\n  whole answer: ${clip(output)}` : undefined
}

const clip = (text: string) => (text.length > 1500 ? `${text.slice(0, 1500)}...` : text)

/** GitHub's anchors for the headings of a markdown text. */
const headingAnchors = (markdown: string): Set<string> => {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const match of markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-")
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}
