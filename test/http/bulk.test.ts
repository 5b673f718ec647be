import { Effect } from "effect"
import { request } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JobQueue } from "../../src/services/job-queue/JobQueue.js"
import { TextEmbedder } from "../../src/services/text-embedder/TextEmbedder.js"
import { BULK_LIMITS } from "../../src/http/BulkLine.js"
import { foreground } from "../../src/platform/Foreground.js"
import { call } from "../support/Http.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"
import { startServerProcess } from "../support/ServerProcess.js"
import { makeWorkspace } from "../support/Workspace.js"

interface Answer {
  readonly line: number
  readonly status: number
  readonly message: string
  readonly data?: Record<string, unknown>
  readonly issues?: ReadonlyArray<{ path: ReadonlyArray<string | number>; message: string }>
}

/**
 * A bulk push over a real connection: `send` writes the body (in pieces, as it likes) and ends
 * it or not; answers are collected as they stream in, and `onAnswer` sees each one.
 */
const pushBulk = (
  baseUrl: string,
  auth: string,
  send: (body: { write: (text: string) => void; end: () => void; destroy: () => void }) => void | Promise<void>,
  onAnswer: (answer: Answer, all: ReadonlyArray<Answer>) => void = () => {},
  contentType = "application/x-ndjson"
) =>
  new Promise<{ status: number; answers: Array<Answer>; raw: string }>((resolve, reject) => {
    const answers: Array<Answer> = []
    let raw = ""
    let status = 0
    const req = request(
      `${baseUrl}/products/bulk`,
      { method: "POST", headers: { authorization: auth, "content-type": contentType } },
      (res) => {
        status = res.statusCode ?? 0
        let carry = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => {
          raw += chunk
          carry += chunk
          const lines = carry.split("\n")
          carry = lines.pop()!
          for (const line of lines) {
            if (line.trim() === "" || status !== 200) continue
            const answer = JSON.parse(line) as Answer
            answers.push(answer)
            onAnswer(answer, answers)
          }
        })
        res.on("end", () => resolve({ status, answers, raw }))
        res.on("error", () => resolve({ status, answers, raw }))
        res.on("aborted", () => resolve({ status, answers, raw }))
      }
    )
    req.on("error", (e) => (status === 0 ? reject(e) : resolve({ status, answers, raw })))
    req.on("close", () => resolve({ status, answers, raw }))
    void Promise.resolve(
      send({ write: (text) => req.write(text), end: () => req.end(), destroy: () => req.destroy() })
    ).catch(reject)
  })

const ndjson = (...lines: ReadonlyArray<unknown>) =>
  `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`
const sendAll = (text: string) => (body: { write: (t: string) => void; end: () => void }) => {
  body.write(text)
  body.end()
}

let server: InProcessApi
beforeAll(async () => {
  server = await startInProcessApi()
})
afterAll(() => server?.close())

const product = (id: string) =>
  call(server.baseUrl, "GET", `/product/${encodeURIComponent(id)}`, { auth: server.siteA.basic })
const search = (body: Record<string, unknown>) =>
  call(server.baseUrl, "POST", "/text-search", { auth: server.siteA.bearer, body }).then((r) =>
    r.body.data.products.map((p: any) => p.productId)
  )
const embedded = () =>
  server.run(
    Effect.map(
      Effect.flatMap(TextEmbedder, (e) => e.stats),
      (s) => s.documentsEmbedded
    )
  )
const drained = () => server.run(Effect.flatMap(JobQueue, (q) => q.drained))

describe("POST /products/bulk", () => {
  it("answers every line in order, applies the good ones and never fails them for a bad one", async () => {
    await call(server.baseUrl, "PUT", "/product/old-1", {
      auth: server.siteA.basic,
      body: { data: { title: "Old Lantern", price: 30 } }
    })
    const body = ndjson(
      {
        id: "bk-1",
        data: { title: "Walnut Chopping Board", price: 25 },
        images: [{ url: "https://img.example.com/board.jpg" }]
      },
      { id: "bk-2", data: { title: "Garden Hose", price: "cheap" } },
      "",
      "not json",
      { id: "old-1", patch: { data: { price: 19, color: "black" } } },
      { id: "nobody", patch: { data: { price: 1 } } },
      { id: "bk-3", data: { title: "Steel Whisk" } },
      { id: "bk-3", delete: true },
      { id: "never-there", delete: true },
      { id: "bk-4", data: { title: "First Title" } },
      { id: "bk-4", data: { title: "Second Title", price: 5 } },
      { id: "bk-5", data: { title: "Kettle" }, extra: 1 },
      { id: "bk-6", patch: { data: { price: 2 } }, delete: true },
      { id: "", data: { title: "No Id" } },
      { id: "bk-7", data: { title: "Tea \u0000 Towel" } },
      { id: "bk-8", data: { title: "x".repeat(1_100_000) } },
      { id: "bk-9", data: { title: "Enamel Colander", price: 14 } }
    )
    const { answers, status } = await pushBulk(server.baseUrl, server.siteA.basic, sendAll(body))
    expect(status).toBe(200)
    const site = server.siteA.site.id
    expect(answers.map((a) => [a.line, a.status])).toEqual([
      [1, 200],
      [2, 400],
      [4, 400],
      [5, 200],
      [6, 404],
      [7, 200],
      [8, 200],
      [9, 404],
      [10, 200],
      [11, 200],
      [12, 400],
      [13, 400],
      [14, 400],
      [15, 400],
      [16, 413],
      [17, 200]
    ])
    expect(answers[0]).toEqual({
      line: 1,
      status: 200,
      message: "product created",
      data: { "site-id": site, "product-id": "bk-1" }
    })
    expect(answers[1]).toMatchObject({
      message: 'data.price: must be a number, not "cheap"',
      issues: [{ path: ["data", "price"] }]
    })
    expect(answers[2].message).toMatch(/^line: not JSON/)
    expect(answers[3]).toMatchObject({ message: "product updated" })
    expect(answers[4].message).toBe('product "nobody" not found')
    expect(answers[6]).toEqual({
      line: 8,
      status: 200,
      message: "product deleted",
      data: { "site-id": site, "product-id": "bk-3", "image-ids": [] }
    })
    expect(answers[8].message).toBe("product created")
    expect(answers[9].message).toBe("product updated")
    expect(answers[10].message).toMatch(/extra: is unexpected/)
    expect(answers[12].message).toBe("id: must not be empty")
    expect(answers[13].message).toMatch(/^data\.title: must not contain the NUL character/)
    expect(answers[14].message).toMatch(/over the limit of 1048576 bytes/)

    expect((await product("bk-1")).body.data.images.map((i: any) => i.url)).toEqual([
      "https://img.example.com/board.jpg"
    ])
    expect((await product("old-1")).body.data.data).toEqual({ title: "Old Lantern", price: 19, color: "black" })
    // Two lines for one product: the later wins.
    expect((await product("bk-4")).body.data.data).toEqual({ title: "Second Title", price: 5 })
    for (const id of ["bk-2", "bk-3", "bk-5", "bk-6", "bk-7", "bk-8", "nobody"])
      expect((await product(id)).status, id).toBe(404)
    expect((await product("bk-9")).status).toBe(200)
  })

  it("refuses read-only tokens and bodies that are not NDJSON", async () => {
    const line = ndjson({ id: "t-1", data: { title: "Token Product" } })
    expect((await pushBulk(server.baseUrl, server.siteA.bearer, sendAll(line))).status).toBe(403)
    const wrongType = await pushBulk(server.baseUrl, server.siteA.basic, sendAll(line), undefined, "text/csv")
    expect(wrongType.status).toBe(415)
    expect(JSON.parse(wrongType.raw)).toEqual({ message: "content-type: must be application/x-ndjson, not text/csv" })
    expect((await product("t-1")).status).toBe(404)
  })

  it("makes products searchable by their words once answered, before their text is embedded", async () => {
    await drained()
    const before = await embedded()
    const lines = Array.from({ length: 1_000 }, (_, i) => ({
      id: `lex-${i}`,
      data: { title: `Quillback ${i === 999 ? "zephyrine" : "plain"} teapot ${i}`, price: 10 + i }
    }))
    const { answers } = await pushBulk(server.baseUrl, server.siteA.basic, sendAll(ndjson(...lines)))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1_000)
    // At once: the last line's word finds it, filters and counts see every product ...
    expect(await search({ query: "zephyrine" })).toEqual(["lex-999"])
    const filtered = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: "quillback", resultsCount: 5, dynamicFilters: [{ column: "price", values: { start: 1_000 } }] }
    })
    expect(filtered.body.data.total).toBe(10)
    // ... while most texts still wait for the model (one embedding thread: seconds for 1,000 titles).
    expect((await embedded()) - before).toBeLessThan(1_000)
    await drained()
    expect((await embedded()) - before).toBe(1_000)

    // A price change through the bulk endpoint: visible to a price filter and sort at once, no model call.
    const cheapest = () => search({ query: "quillback", resultsCount: 2, sort: [{ column: "price", order: "asc" }] })
    expect(await cheapest()).toEqual(["lex-0", "lex-1"])
    const embeddedBefore = await embedded()
    const patched = await pushBulk(
      server.baseUrl,
      server.siteA.basic,
      sendAll(ndjson({ id: "lex-777", patch: { data: { price: 1 } } }))
    )
    expect(patched.answers).toEqual([
      {
        line: 1,
        status: 200,
        message: "product updated",
        data: { "site-id": server.siteA.site.id, "product-id": "lex-777" }
      }
    ])
    expect(await cheapest()).toEqual(["lex-777", "lex-0"])
    await drained()
    expect(await embedded()).toBe(embeddedBefore)

    // A new title and then a price change of one product in one body: the price lands on the
    // document of the new title (not on the one the index held before the body).
    const renamed = await pushBulk(
      server.baseUrl,
      server.siteA.basic,
      sendAll(
        ndjson(
          { id: "lex-5", data: { title: "Quillback dovetail teapot", price: 10 } },
          { id: "lex-5", patch: { data: { price: 0.5 } } }
        )
      )
    )
    expect(renamed.answers.map((a) => a.status)).toEqual([200, 200])
    expect(await search({ query: "dovetail" })).toEqual(["lex-5"])
    expect(await cheapest()).toEqual(["lex-5", "lex-777"])
  })

  it("applies one product's writes in line order across batches indexed at once", async () => {
    // Batches of up to B lines: a product put in the first, renamed in the third and deleted in
    // the fourth, another put in the first and renamed in the second, while the batches overlap.
    const B = BULK_LIMITS.batchLines
    const filler = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => ({
        id: `order-${from + k}`,
        data: { title: `Ordered crate ${from + k}` }
      }))
    const lines = [
      { id: "order-gone", data: { title: "Vanishing ottoman" } },
      { id: "order-kept", data: { title: "Marigold ottoman" } },
      ...filler(0, B - 2),
      { id: "order-kept", data: { title: "Saffron ottoman" } },
      ...filler(B - 2, 2 * B - 3),
      { id: "order-gone", data: { title: "Vanishing ottoman, renamed" } },
      ...filler(2 * B - 3, 3 * B - 4),
      { id: "order-gone", delete: true },
      ...filler(3 * B - 4, 3 * B + 20)
    ]
    const { answers } = await pushBulk(server.baseUrl, server.siteA.basic, sendAll(ndjson(...lines)))
    expect(answers.map((a) => a.line)).toEqual(lines.map((_, i) => i + 1))
    expect(answers.filter((a) => a.status !== 200)).toEqual([])
    expect(await search({ query: "ottoman" })).toEqual(["order-kept"])
    expect(await search({ query: "marigold" })).toEqual([])
    expect((await product("order-gone")).status).toBe(404)
  })

  it("answers every line sent while the body stays open, however many batches are being indexed", async () => {
    // Two full batches, then a line on its own while both are being indexed: the line waits
    // for more lines or for an index step to finish, never for the rest of the body (the
    // client sends it only once every line so far is answered).
    const B = BULK_LIMITS.batchLines
    const line = (i: number) => ndjson({ id: `open-${i}`, data: { title: `Open body lantern ${i}` } })
    // With nobody else served lately, the push has the process to itself: lines are held for
    // full batches (while requests someone waits on are served, every piece is written at once).
    while (foreground.lately()) await new Promise((resolve) => setTimeout(resolve, 50))
    let sendMore = () => {}
    const { answers } = await pushBulk(
      server.baseUrl,
      server.siteA.basic,
      async (body) => {
        body.write(Array.from({ length: 2 * B }, (_, i) => line(i)).join(""))
        // Later than the batches it follows: a piece of its own (timing only shapes the input).
        await new Promise((resolve) => setTimeout(resolve, 20))
        body.write(line(2 * B))
        sendMore = () => body.end()
      },
      (_, all) => {
        if (all.length === 2 * B + 1) sendMore()
      }
    )
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 2 * B + 1 }, () => 200))
  })

  it("keeps the lines answered before the connection dropped, and nothing of the line cut off", async () => {
    const full = Array.from({ length: 50 }, (_, i) =>
      ndjson({ id: `drop-${i}`, data: { title: `Dropped Connection Lamp ${i}`, price: i } })
    ).join("")
    let cut = () => {}
    const done = pushBulk(
      server.baseUrl,
      server.siteA.basic,
      (body) => {
        body.write(full)
        cut = () => {
          body.write('{"id":"drop-half","data":{"title":"Half a li')
          setTimeout(() => body.destroy(), 50)
        }
      },
      (_, all) => {
        if (all.length === 50) cut()
      }
    )
    const { answers } = await done
    expect(answers).toHaveLength(50)
    for (let i = 0; i < 50; i++) expect((await product(`drop-${i}`)).body.data.data.price).toBe(i)
    expect((await product("drop-half")).status).toBe(404)
    // The service goes on serving.
    expect(
      (
        await pushBulk(
          server.baseUrl,
          server.siteA.basic,
          sendAll(ndjson({ id: "after-drop", data: { title: "After" } }))
        )
      ).answers[0].status
    ).toBe(200)
  })
})

describe("a bulk push cut by SIGKILL", () => {
  it("keeps every acknowledged line after a restart, searchable, and nothing half-written", async () => {
    const { env, siteA } = await makeWorkspace({ prefix: "commerce-bulk-kill-" })
    const first = await startServerProcess(env)
    const sent = new Map<string, number>()
    const acknowledged: Array<string> = []
    let killed = false
    await pushBulk(
      first.baseUrl,
      siteA.basic,
      async (body) => {
        // Streams lines until the server dies: pieces of 100, each a little after the last.
        for (let i = 0; i < 50_000 && !killed; i += 100) {
          const piece = Array.from({ length: 100 }, (_, k) => {
            const id = `kill-${i + k}`
            sent.set(id, i + k)
            return ndjson({ id, data: { title: `Killcrest Kettle ${i + k}`, price: i + k } })
          }).join("")
          body.write(piece)
          await new Promise((r) => setTimeout(r, 5))
        }
      },
      (answer) => {
        if (answer.status === 200) acknowledged.push(String(answer.data!["product-id"]))
        if (acknowledged.length >= 1_500 && !killed) {
          killed = true
          first.child.kill("SIGKILL")
        }
      }
    )
    expect(await first.exited).toBe("SIGKILL")
    expect(acknowledged.length).toBeGreaterThanOrEqual(1_500)

    const second = await startServerProcess(env)
    try {
      for (const id of acknowledged) {
        const res = await call(second.baseUrl, "GET", `/product/${id}`, { auth: siteA.basic })
        expect(res.status, id).toBe(200)
        expect(res.body.data.data).toEqual({ title: `Killcrest Kettle ${sent.get(id)}`, price: sent.get(id) })
      }
      // Indexed by their words at startup (before their embeddings).
      const res = await call(second.baseUrl, "POST", "/text-search", {
        auth: siteA.bearer,
        body: { query: "killcrest kettle", resultsCount: 1 }
      })
      expect(res.body.data.total).toBeGreaterThanOrEqual(acknowledged.length)
    } finally {
      second.child.kill("SIGTERM")
      expect(await second.exited).toBe(0)
    }
  }, 180_000)
})
