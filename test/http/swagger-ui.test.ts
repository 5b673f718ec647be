import { existsSync } from "node:fs"
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

// Swagger UI at /docs, driven in Debian's Chromium (installed by `npm run setup`): Authorize
// with either scheme, then "Try it out" sends the header the OpenAPI document asks for.
const CHROMIUM = "/usr/bin/chromium"

let server: InProcessApi
let browser: Browser

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: run "npm run setup" (it installs Debian's chromium package)`)
  server = await startInProcessApi()
  browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--headless=new"] })
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

const WAIT = { timeout: 60_000 }

/** A page element (the project compiles without the DOM library; the page's types stay loose). */
type Handle = ElementHandle<any>

/** Opens /docs and authorizes with the given credentials through the Authorize dialog. */
const authorizedPage = async (credentials: {
  readonly basic?: readonly [string, string]
  readonly bearer?: string
}) => {
  const page = await browser.newPage()
  await page.goto(`${server.baseUrl}/docs`, { waitUntil: "networkidle0", ...WAIT })
  await page.click(".btn.authorize")
  await page.waitForSelector(".modal-ux .auth-container", WAIT)
  const forms = await page.$$(".modal-ux .auth-container")
  const formOf = async (scheme: string) => {
    for (const form of forms)
      if ((await form.evaluate((e: any) => String(e.textContent ?? ""))).startsWith(scheme)) return form
    throw new Error(`no ${scheme} form in the Authorize dialog`)
  }
  if (credentials.basic) {
    const form = await formOf("basic")
    await (await form.$("input[type=text]"))!.type(credentials.basic[0])
    await (await form.$("input[type=password]"))!.type(credentials.basic[1])
    await (await form.$("button.authorize"))!.click()
  }
  if (credentials.bearer) {
    const form = await formOf("bearer")
    await (await form.$("input"))!.type(credentials.bearer)
    await (await form.$("button.authorize"))!.click()
  }
  await page.click(".modal-ux .close-modal")
  return page
}

/**
 * Expands an operation, fills it in, executes it; returns the status Swagger UI shows and the
 * Authorization it sent.
 */
const tryOut = async (page: Page, operationId: string, fill: (operation: Handle) => Promise<void>) => {
  // Swagger UI escapes the dot of "group.operation" in the element id.
  const handle = await page.waitForFunction(
    (id) => [...(globalThis as any).document.querySelectorAll(".opblock")].find((e: any) => e.id.endsWith(id)),
    WAIT,
    `\\.${operationId}`
  )
  const operation = handle.asElement() as Handle
  await (await operation.$(".opblock-summary"))!.click()
  await (await operation.waitForSelector(".try-out__btn", WAIT))!.click()
  await fill(operation)
  await (await operation.waitForSelector(".execute", WAIT))!.click()
  const status = await (await operation.waitForSelector(
    ".live-responses-table tbody .response-col_status",
    WAIT
  ))!.evaluate((e: any) => String(e.textContent).trim())
  const curl = await (await operation.waitForSelector(".curl-command", WAIT))!.evaluate((e: any) =>
    String(e.textContent)
  )
  return { status: Number(status), scheme: /Authorization: (\w+)/.exec(curl)?.[1] ?? "none" }
}

const typeBody = (page: Page, body: string) => async (operation: Handle) => {
  const area = (await operation.waitForSelector("textarea.body-param__text", WAIT))!
  // The editor is React-controlled: replace its text the way a user would.
  await area.focus()
  await page.keyboard.down("Control")
  await page.keyboard.press("A")
  await page.keyboard.up("Control")
  await page.keyboard.press("Backspace")
  await area.type(body)
}

const typeProductId = (id: string) => async (operation: Handle) => {
  await (await operation.waitForSelector('input[placeholder="productId"]', WAIT))!.type(id)
}

describe("Swagger UI", () => {
  it("with the read-only token authorized, tries reads with Bearer; Basic-only ones stay unauthorized", async () => {
    const page = await authorizedPage({ bearer: server.siteA.bearer.replace(/^Bearer /, "") })
    expect(await tryOut(page, "autoSuggest", typeBody(page, '{"query":"dri"}'))).toEqual({
      status: 200,
      scheme: "Bearer"
    })
    expect(await tryOut(page, "getProduct", typeProductId("absent-1"))).toEqual({ status: 404, scheme: "Bearer" })
    expect(
      await tryOut(page, "putProduct", async (operation) => {
        await typeProductId("swagger-1")(operation)
        await typeBody(page, '{"data":{"title":"Swagger Drill"},"images":[]}')(operation)
      })
    ).toEqual({ status: 401, scheme: "none" })
    await page.close()
  }, 180_000)

  it("authorized with site credentials, tries every operation with Basic", async () => {
    const [username, password] = Buffer.from(server.siteA.basic.replace(/^Basic /, ""), "base64")
      .toString()
      .split(":")
    const page = await authorizedPage({ basic: [username, password] })
    expect(
      await tryOut(page, "putProduct", async (operation) => {
        await typeProductId("swagger-1")(operation)
        await typeBody(page, '{"data":{"title":"Swagger Drill"},"images":[]}')(operation)
      })
    ).toEqual({ status: 200, scheme: "Basic" })
    expect(await tryOut(page, "getProduct", typeProductId("swagger-1"))).toEqual({ status: 200, scheme: "Basic" })
    await page.close()
  }, 180_000)
})
