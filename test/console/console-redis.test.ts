import type { Browser } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { eventually } from "../support/Eventually.js"
import { call } from "../support/Http.js"
import { redisForThisFile } from "../support/RedisSuite.js"
import { type ServerProcess, startServerProcess } from "../support/ServerProcess.js"
import { startWorkerProcess, type WorkerProcess } from "../support/WorkerProcess.js"
import { makeWorkspace, type Workspace } from "../support/Workspace.js"
import {
  launchBrowser,
  openConsole,
  resultTitles,
  signInWithPassword,
  total,
  WAIT,
  waitForText
} from "./ConsoleDriver.js"

/*
 * The console against the Redis-only topology: an api process and a worker process on one real
 * redis-server, the catalog and the merchandising in Redis, as ops run them.
 */
const redis = redisForThisFile()
let sites: Workspace
let api: ServerProcess
let worker: WorkerProcess
let browser: Browser

beforeAll(async () => {
  sites = await makeWorkspace({ prefix: "commerce-console-redis-" })
  const env = { ...sites.env, REDIS_URL: redis.url }
  ;[api, worker] = await Promise.all([startServerProcess(env), startWorkerProcess(env)])
  for (let i = 0; i < 6; i++) {
    const res = await call(api.baseUrl, "PUT", `/product/kettle-${i}`, {
      auth: sites.siteA.basic,
      body: {
        data: {
          title: `${i < 3 ? "Steel" : "Glass"} electric kettle ${i}`,
          brand: i < 3 ? "Brewer" : "Clearwater",
          price: 20 + i * 4,
          product_type: "Home > Kitchen > Kettles"
        }
      }
    })
    expect(res.status).toBe(200)
  }
  // Indexed by the worker: searchable once its write reaches the api's replica.
  await eventually(async () => {
    const res = await call(api.baseUrl, "POST", "/text-search", {
      auth: sites.siteA.bearer,
      body: { query: "electric kettle" }
    })
    expect(res.body.data.total).toBe(6)
  }, 60_000)
  browser = await launchBrowser()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  worker?.child.kill("SIGKILL")
  api?.child.kill("SIGKILL")
  sites?.dispose()
})

describe("the console on the Redis-only topology", () => {
  it("searches, filters, and a synonym written through it changes the preview", async () => {
    const { page, problems } = await openConsole(browser, api.baseUrl)
    await signInWithPassword(page, sites.siteA.basic)
    await page.locator('::-p-aria(Search[role="searchbox"])').fill("electric kettle")
    await page.keyboard.press("Enter")
    await page.waitForSelector("ul[aria-label=Results] li", WAIT)
    expect(await total(page)).toBe(6)
    await (await page.waitForSelector("::-p-aria(Brewer (3))", WAIT))!.click()
    await waitForText(page, ".bar span", /^3 results/)
    expect((await resultTitles(page)).every((title) => title.startsWith("Steel"))).toBe(true)

    await page.locator('::-p-aria(Synonyms[role="link"])').click()
    await page.locator("::-p-aria(Preview query)").fill("teapot")
    await waitForText(page, "section[aria-label=Preview] p", /^0 results/)
    await page.locator("form[aria-label=Synonym] ::-p-aria(Id)").fill("teapot")
    await page.select("::-p-aria(Type)", "oneWaySynonym")
    await page.locator("form[aria-label=Synonym] ::-p-aria(Input)").fill("teapot")
    await page.locator("form[aria-label=Synonym] ::-p-aria(Synonyms (comma-separated))").fill("kettle")
    await page.locator("::-p-aria(Save synonym)").click()
    await waitForText(page, "section[aria-label=Preview] p", /^6 results/)
    // Stored in Redis: the api reads it back as any other process would.
    const stored = await call(api.baseUrl, "GET", "/synonyms/teapot", { auth: sites.siteA.basic })
    expect(stored.body).toMatchObject({ type: "oneWaySynonym", input: "teapot", synonyms: ["kettle"] })
    expect(problems).toEqual([])
    await page.close()
  }, 180_000)
})
