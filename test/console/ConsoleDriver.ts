import { existsSync } from "node:fs"
import puppeteer, { type Browser, type Page } from "puppeteer-core"

/** Driving the console in Debian's Chromium (installed by `npm run setup`). */
const CHROMIUM = "/usr/bin/chromium"
export const WAIT = { timeout: 60_000 }

export const launchBrowser = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: run "npm run setup" (it installs Debian's chromium package)`)
  return puppeteer.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--headless=new"] })
}

/**
 * A page on the console that records every console error and failed request (none is expected),
 * but for `expected`: the URLs of a catalog's deliberately broken images.
 */
export const openConsole = async (browser: Browser, baseUrl: string, expected: ReadonlyArray<string> = []) => {
  const page = await browser.newPage()
  await page.setViewport({ width: 1200, height: 900 })
  const problems: Array<string> = []
  const known = (text: string) => expected.some((url) => text.includes(url))
  page.on("console", (message) => {
    const location = message.location().url ?? ""
    if (message.type() === "error" && !known(location) && !known(message.text()))
      problems.push(`console: ${message.text()} ${location}`)
  })
  page.on("pageerror", (error) => problems.push(`page: ${String(error)}`))
  page.on("requestfailed", (request) => {
    if (!known(request.url())) problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`)
  })
  page.on("response", (response) => {
    if (response.status() >= 400 && !known(response.url())) problems.push(`${response.status()}: ${response.url()}`)
  })
  await page.goto(`${baseUrl}/console`, { waitUntil: "networkidle0", ...WAIT })
  return { page, problems }
}

/** Signs in with the username and password of a Basic header value. */
export const signInWithPassword = async (page: Page, basic: string) => {
  const [username, password] = Buffer.from(basic.replace(/^Basic /, ""), "base64")
    .toString()
    .split(":")
  await page.locator("::-p-aria(Username)").fill(username)
  await page.locator("::-p-aria(Password)").fill(password)
  await page.locator('::-p-aria(Sign in[role="button"])').click()
  await page.waitForSelector('::-p-aria(Search[role="searchbox"])', WAIT)
}

export const text = (page: Page, selector: string) => page.$eval(selector, (e: any) => String(e.textContent ?? ""))
export const resultTitles = (page: Page) =>
  page.$$eval("ul[aria-label=Results] li h3", (items: Array<any>) => items.map((e) => String(e.textContent)))
export const total = async (page: Page) => Number(/(\d+) result/.exec(await text(page, ".bar span"))?.[1])

/** Waits until the element's text matches. */
export const waitForText = (page: Page, selector: string, pattern: RegExp) =>
  page.waitForFunction(
    (s: string, source: string) =>
      new RegExp(source).test(String((globalThis as any).document.querySelector(s)?.textContent ?? "")),
    WAIT,
    selector,
    pattern.source
  )
