import * as fs from "node:fs"
import * as http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventually } from "../support/Eventually.js"
import { call } from "../support/Http.js"
import { type ServerProcess, startServerProcess } from "../support/ServerProcess.js"
import { makeWorkspace, type Workspace } from "../support/Workspace.js"

/**
 * The embedded default with a search replica (SEARCH_REPLICAS=1): one api process as users
 * start it, which forks the replica itself.
 */

const byReplica = (headers: Headers) => (headers.get("server-timing") ?? "").split(/,\s*/).includes("replica")

/** The process ids of the api's children (its search replica). */
const childrenOf = (pid: number): Array<number> => {
  const tasks = fs.readdirSync(`/proc/${pid}/task`)
  return tasks.flatMap((task) =>
    fs
      .readFileSync(`/proc/${pid}/task/${task}/children`, "utf8")
      .split(" ")
      .filter((id) => id.trim() !== "")
      .map(Number)
  )
}

/** Running (an exited child of a parent that died lingers as a zombie until reaped). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"))
  } catch {
    return false
  }
}

/** A request on `agent`'s one kept-alive connection; the answer gathered whole. */
const onConnection = (
  agent: http.Agent,
  baseUrl: string,
  method: string,
  path: string,
  options: { auth: string; body?: unknown }
) =>
  new Promise<{ status: number; headers: Headers; body: any }>((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${path}`,
      { method, agent, headers: { authorization: options.auth, "content-type": "application/json" } },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => (text += chunk))
        res.on("end", () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === "string") headers.set(name, value)
          resolve({ status: res.statusCode ?? 0, headers, body: text === "" ? undefined : JSON.parse(text) })
        })
      }
    )
    req.on("error", reject)
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body))
  })

/**
 * A connection of its own that the leader handed to the replica (it hands each new connection to
 * the process with fewer): connections the leader kept stay open meanwhile, in `held`.
 */
const replicaConnection = async (api: ServerProcess, auth: string, held: Array<http.Agent>) => {
  for (let attempt = 0; attempt < 10; attempt++) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    held.push(agent)
    const res = await onConnection(agent, api.baseUrl, "POST", "/text-search", { auth, body: { query: "lamp" } })
    if (byReplica(res.headers)) return agent
  }
  throw new Error("no connection was handed to the replica in 10")
}

const replicaReady = async (api: ServerProcess) =>
  eventually(async () => {
    const res = await call(api.baseUrl, "GET", "/readyz")
    expect(res.body.searchReplicas).toEqual({ configured: 1, ready: 1 })
  }, 120_000)

/** `count` searches at once for `query`, repeated `rounds` times; every answer. */
const searchesInFlight = async (api: ServerProcess, auth: string, query: string, count: number, rounds: number) => {
  const answers: Array<Awaited<ReturnType<typeof call>>> = []
  for (let r = 0; r < rounds; r++)
    answers.push(
      ...(await Promise.all(
        Array.from({ length: count }, () =>
          call(api.baseUrl, "POST", "/text-search", { auth, body: { query, resultsCount: 5 } })
        )
      ))
    )
  return answers
}

describe("the embedded default with a search replica", () => {
  let workspace: Workspace
  let api: ServerProcess

  beforeAll(async () => {
    workspace = await makeWorkspace({ prefix: "commerce-replica-" })
    api = await startServerProcess({ ...workspace.env, SEARCH_REPLICAS: "1" })
    await replicaReady(api)
  }, 180_000)

  afterAll(async () => {
    api?.child.kill("SIGTERM")
    if (api) expect(await api.exited).toBe(0)
    fs.rmSync(workspace.dir, { recursive: true, force: true })
  })

  it("answers searches from both processes, every search seeing the writes acknowledged before it", async () => {
    const { siteA } = workspace
    let stop = false
    let background = 0
    // Searches in flight all along, so the leader hands some of the checked ones to the replica.
    const noise = Promise.all(
      Array.from({ length: 3 }, async () => {
        while (!stop) {
          await call(api.baseUrl, "POST", "/text-search", { auth: siteA.bearer, body: { query: "lamp" } })
          background++
        }
      })
    )
    let answeredByReplica = 0
    try {
      for (let i = 0; i < 40; i++) {
        const word = `quokkalamp${i}x`
        const put = await call(api.baseUrl, "PUT", `/product/ryw-${i}`, {
          auth: siteA.basic,
          body: { data: { title: `Desk lamp ${word}`, price: 20 + i } }
        })
        expect(put.status).toBe(200)
        const found = await call(api.baseUrl, "POST", "/text-search", {
          auth: siteA.bearer,
          body: { query: word, resultsCount: 5 }
        })
        expect(found.status).toBe(200)
        expect(found.body.data.products.map((p: { productId: string }) => p.productId)).toContain(`ryw-${i}`)
        if (byReplica(found.headers)) answeredByReplica++
      }
    } finally {
      stop = true
      await noise
    }
    expect(background).toBeGreaterThan(0)
    expect(answeredByReplica).toBeGreaterThan(0)
    // A deletion reaches the replica too: no process answers with the deleted product.
    expect((await call(api.baseUrl, "DELETE", "/product/ryw-0", { auth: siteA.basic })).status).toBe(200)
    const after = await searchesInFlight(api, siteA.bearer, "quokkalamp0x", 4, 3)
    expect(after.some((res) => byReplica(res.headers))).toBe(true)
    for (const res of after) expect(res.body.data.products).toEqual([])
  }, 120_000)

  it("keeps a site's data to itself in the replica too, and counts every search in the analytics", async () => {
    const answers = await searchesInFlight(api, workspace.siteB.bearer, "quokkalamp5x", 4, 3)
    expect(answers.some((res) => byReplica(res.headers))).toBe(true)
    for (const res of answers) expect(res.body.data.products).toEqual([])
    // Recorded through the leader whichever process answered: all 12, as zero-result searches.
    await eventually(async () => {
      const res = await call(api.baseUrl, "GET", "/analytics/searches", { auth: workspace.siteB.basic })
      expect(res.body.data.zeroResultQueries).toEqual([
        expect.objectContaining({ query: "quokkalamp5x", searches: 12, zeroResults: 12 })
      ])
    }, 30_000)
  }, 60_000)

  it("passes a handed connection's other requests to the leader, streamed both ways", async () => {
    const { siteA } = workspace
    const held: Array<http.Agent> = []
    try {
      const agent = await replicaConnection(api, siteA.bearer, held)
      // A write on the replica's connection: the leader answers it, the replica's next search sees it.
      const put = await onConnection(agent, api.baseUrl, "PUT", "/product/via-replica", {
        auth: siteA.basic,
        body: { data: { title: "Desk lamp wombatshade", price: 31 } }
      })
      expect(put.status).toBe(200)
      expect(byReplica(put.headers)).toBe(false)
      const found = await onConnection(agent, api.baseUrl, "POST", "/text-search", {
        auth: siteA.bearer,
        body: { query: "wombatshade" }
      })
      expect(byReplica(found.headers)).toBe(true)
      expect(found.body.data.products.map((p: { productId: string }) => p.productId)).toEqual(["via-replica"])
      // A bulk push through it answers each line before the next is sent: neither way is buffered whole.
      const answers: Array<{ line: number; status: number }> = []
      const status = await new Promise<number>((resolve, reject) => {
        let next = 0
        const line = (i: number) => `${JSON.stringify({ id: `bulk-via-replica-${i}`, data: { title: `Lamp ${i}` } })}\n`
        const req = http.request(
          `${api.baseUrl}/products/bulk`,
          { method: "POST", agent, headers: { authorization: siteA.basic, "content-type": "application/x-ndjson" } },
          (res) => {
            let carry = ""
            res.setEncoding("utf8")
            res.on("data", (chunk: string) => {
              carry += chunk
              const lines = carry.split("\n")
              carry = lines.pop()!
              for (const text of lines.filter((l) => l.trim() !== "")) {
                answers.push(JSON.parse(text))
                if (++next < 3) req.write(line(next))
                else req.end()
              }
            })
            res.on("end", () => resolve(res.statusCode ?? 0))
          }
        )
        req.on("error", reject)
        req.write(line(0))
      })
      expect(status).toBe(200)
      expect(answers.map((a) => [a.line, a.status])).toEqual([
        [1, 200],
        [2, 200],
        [3, 200]
      ])
    } finally {
      for (const agent of held) agent.destroy()
    }
  }, 60_000)

  it("applies a synonym and a rule the leader took in the replica's searches too, within a second", async () => {
    const { siteA } = workspace
    const held: Array<http.Agent> = []
    try {
      const agent = await replicaConnection(api, siteA.bearer, held)
      const product = await call(api.baseUrl, "PUT", "/product/lamp-numbat", {
        auth: siteA.basic,
        body: { data: { title: "Numbat reading lamp" } }
      })
      expect(product.status).toBe(200)
      const search = () =>
        onConnection(agent, api.baseUrl, "POST", "/text-search", { auth: siteA.bearer, body: { query: "glowbarrow" } })
      expect((await search()).body.data.products).toEqual([])
      const synonym = await call(api.baseUrl, "PUT", "/synonyms/glowbarrow", {
        auth: siteA.basic,
        body: { type: "oneWaySynonym", input: "glowbarrow", synonyms: ["numbat"] }
      })
      expect(synonym.status).toBe(200)
      const rule = await call(api.baseUrl, "PUT", "/rules/glow", {
        auth: siteA.basic,
        body: {
          conditions: [{ pattern: "glowbarrow", anchoring: "is" }],
          consequence: { userData: { banner: "Glow" } }
        }
      })
      expect(rule.status).toBe(200)
      await eventually(async () => {
        const res = await search()
        expect(byReplica(res.headers)).toBe(true)
        expect(res.body.data.products.map((p: { productId: string }) => p.productId)).toEqual(["lamp-numbat"])
        expect(res.body.data.userData).toEqual([{ banner: "Glow" }])
      }, 10_000)
    } finally {
      for (const agent of held) agent.destroy()
    }
  }, 60_000)

  it("forks the replica again when it dies; the leader takes every connection meanwhile", async () => {
    const [replica] = childrenOf(api.child.pid!)
    expect(replica).toBeGreaterThan(0)
    process.kill(replica, "SIGKILL")
    // Its clients' connections died with it (as with any server process killed outright); the
    // leader notices, and the connections clients open again are its own.
    await eventually(async () => {
      const res = await call(api.baseUrl, "GET", "/readyz")
      expect(res.body.searchReplicas).toEqual({ configured: 1, ready: 0 })
    }, 30_000)
    for (let i = 0; i < 20; i++) {
      const res = await call(api.baseUrl, "POST", "/text-search", {
        auth: workspace.siteA.bearer,
        body: { query: "quokkalamp7x" }
      })
      expect(res.status).toBe(200)
      expect(res.body.data.products.map((p: { productId: string }) => p.productId)).toContain("ryw-7")
    }
    await replicaReady(api)
    const [again] = childrenOf(api.child.pid!)
    expect(again).not.toBe(replica)
    const answers = await searchesInFlight(api, workspace.siteA.bearer, "quokkalamp7x", 4, 3)
    expect(answers.some((res) => byReplica(res.headers))).toBe(true)
    for (const res of answers) expect(res.body.data.products[0].productId).toBe("ryw-7")
  }, 180_000)
})

describe("a search replica and its leader", () => {
  it("share one rate limit: a read budget is spent once, whichever process answers", async () => {
    const workspace = await makeWorkspace({ prefix: "commerce-replica-limit-" })
    const api = await startServerProcess({ ...workspace.env, SEARCH_REPLICAS: "1", REST_RATE_LIMIT_READ: "12" })
    try {
      await replicaReady(api)
      const answers = await searchesInFlight(api, workspace.siteA.bearer, "anything", 4, 6)
      const allowed = answers.filter((res) => res.status === 200)
      expect(allowed.some((res) => byReplica(res.headers))).toBe(true)
      expect(allowed.some((res) => !byReplica(res.headers))).toBe(true)
      // Two budgets (one per process) would have let up to 24 through; one lets its burst of 12
      // through, and one more if the run outlasts the 5 s a request's budget takes to come back.
      expect(allowed.length).toBeLessThanOrEqual(13)
      expect(answers.filter((res) => res.status === 429).length).toBe(24 - allowed.length)
    } finally {
      api.child.kill("SIGTERM")
      await api.exited
      fs.rmSync(workspace.dir, { recursive: true, force: true })
    }
  }, 180_000)

  it("does not outlive its leader: a leader killed outright takes the replica with it", async () => {
    const workspace = await makeWorkspace({ prefix: "commerce-replica-orphan-" })
    const api = await startServerProcess({ ...workspace.env, SEARCH_REPLICAS: "1" })
    try {
      await replicaReady(api)
      const [replica] = childrenOf(api.child.pid!)
      expect(alive(replica)).toBe(true)
      api.child.kill("SIGKILL")
      await api.exited
      await eventually(() => expect(alive(replica)).toBe(false), 30_000)
    } finally {
      api.child.kill("SIGKILL")
      fs.rmSync(workspace.dir, { recursive: true, force: true })
    }
  }, 180_000)
})
