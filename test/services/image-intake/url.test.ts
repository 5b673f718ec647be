import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isImageUnavailable } from "../../../src/services/image-intake/IntakeErrors.js"
import { jpeg } from "./images.js"
import { type LoopbackHost, startLoopbackHost } from "../../support/LoopbackHost.js"
import { freePort } from "../../support/ServerProcess.js"
import { failureOf, withIntake } from "./support.js"

let server: LoopbackHost
let photo: Buffer
let seenHeaders: Record<string, string | Array<string> | undefined> = {}

beforeAll(async () => {
  photo = await jpeg(320, 240)
  server = await startLoopbackHost({
    "/photo.jpg": (req, res) => {
      seenHeaders = req.headers
      res.writeHead(200, { "content-type": "image/jpeg" }).end(photo)
    },
    "/unlabelled": (_req, res) => res.writeHead(200).end(photo),
    "/to-photo": (_req, res) => res.writeHead(302, { location: "/photo.jpg" }).end(),
    "/loop": (_req, res) => res.writeHead(301, { location: "/loop" }).end(),
    "/to-private": (_req, res) => res.writeHead(302, { location: "http://10.0.0.1/x.jpg" }).end(),
    "/to-ftp": (_req, res) => res.writeHead(302, { location: "ftp://127.0.0.1/x.jpg" }).end(),
    "/page.html": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html></html>"),
    "/bytes": (_req, res) => res.writeHead(200, { "content-type": "application/octet-stream" }).end("not an image"),
    "/big": (_req, res) => res.writeHead(200, { "content-type": "image/jpeg" }).end(Buffer.alloc(200_000)),
    "/big-chunked": (_req, res) => {
      // No Content-Length: only counting while streaming can stop this.
      res.writeHead(200, { "content-type": "image/jpeg" })
      const chunk = Buffer.alloc(16_384)
      const timer = setInterval(() => res.write(chunk), 1)
      res.on("close", () => clearInterval(timer))
    },
    "/slow": () => {} // accepts and never answers
  })
})
afterAll(() => server.close())

const open = { allowPrivateUrls: true }

describe("ImageIntake.fromUrl: address checks", () => {
  it("refuses a URL on 127.0.0.1 by default, naming the field", async () => {
    const error = await withIntake({}, (intake) => failureOf(intake.fromUrl(server.url("/photo.jpg"), "query.url")))
    expect(error).toMatchObject({ _tag: "ImageAddressRefused", field: "query.url" })
    expect(error.message).toBe("query.url: private, loopback and link-local addresses are not allowed (127.0.0.1)")
  })

  it("refuses private, metadata and IPv6 loopback targets without connecting", async () => {
    const targets = [
      "http://10.1.2.3/x.jpg",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::1]/x.jpg",
      "http://localhost/x.jpg",
      "http://0x7f.1/x.jpg",
      "http://[::ffff:10.0.0.1]/",
      "http://metadata.google.internal/"
    ]
    for (const url of targets) {
      const started = Date.now()
      const error = await withIntake({}, (intake) => failureOf(intake.fromUrl(url, "query.url")))
      expect(error, url).toMatchObject({ _tag: "ImageAddressRefused" })
      expect(Date.now() - started, url).toBeLessThan(1_000)
    }
  })

  it("refuses other schemes and malformed URLs as invalid", async () => {
    for (const url of ["ftp://example.com/x.jpg", "file:///etc/passwd", "data:image/png;base64,AAAA", "not a url"]) {
      const error = await withIntake(open, (intake) => failureOf(intake.fromUrl(url, "images.0.url")))
      expect(error, url).toMatchObject({ _tag: "ImageUrlInvalid", field: "images.0.url" })
    }
  })

  it("re-checks every redirect target", async () => {
    const loopbackOnly = { allowedCidrs: ["127.0.0.0/8"] }
    const fine = await withIntake(loopbackOnly, (intake) => intake.fromUrl(server.url("/to-photo"), "query.url"))
    expect([fine.width, fine.height]).toEqual([320, 240])
    const started = Date.now()
    const privateHop = await withIntake(loopbackOnly, (intake) =>
      failureOf(intake.fromUrl(server.url("/to-private"), "query.url"))
    )
    expect(privateHop).toMatchObject({ _tag: "ImageAddressRefused" })
    expect(privateHop.message).toBe(
      "query.url: redirected to http://10.0.0.1/x.jpg: private, loopback and link-local addresses are not " +
        "allowed (10.0.0.1)"
    )
    expect(Date.now() - started).toBeLessThan(1_000)
    const ftpHop = await withIntake(open, (intake) => failureOf(intake.fromUrl(server.url("/to-ftp"), "query.url")))
    expect(ftpHop).toMatchObject({ _tag: "ImageUrlInvalid" })
    expect(ftpHop.message).toContain("redirected to ftp://127.0.0.1/x.jpg: only http and https")
  })

  it("stops a redirect loop after maxRedirects", async () => {
    const error = await withIntake({ ...open, maxRedirects: 2 }, (intake) =>
      failureOf(intake.fromUrl(server.url("/loop"), "query.url"))
    )
    expect(error).toMatchObject({
      _tag: "ImageHostBadResponse",
      message: "query.url: the URL redirected more than 2 times"
    })
  })
})

describe("ImageIntake.fromUrl: fetching", () => {
  it("fetches and decodes an allowed image at full resolution, asking for image types", async () => {
    const image = await withIntake(open, (intake) => intake.fromUrl(server.url("/photo.jpg"), "query.url"))
    expect([image.format, image.width, image.height]).toEqual(["jpeg", 320, 240])
    expect(Buffer.from(image.bytes).equals(photo)).toBe(true)
    expect(seenHeaders.accept).toMatch(/^image\/jpeg/)
    expect(seenHeaders["user-agent"]).toMatch(/commerce-search/)
    expect(seenHeaders.host).toMatch(/^127\.0\.0\.1:\d+$/)
    // The bytes decide the format when the server does not say.
    const unlabelled = await withIntake(open, (intake) => intake.fromUrl(server.url("/unlabelled"), "query.url"))
    expect(unlabelled.format).toBe("jpeg")
  })

  it("connects to the checked address of a named host, keeping the name in the Host header", async () => {
    const url = server.url("/photo.jpg").replace("127.0.0.1", "localhost")
    const image = await withIntake(open, (intake) => intake.fromUrl(url, "query.url"))
    expect(image.width).toBe(320)
    expect(seenHeaders.host).toMatch(/^localhost:\d+$/)
  })

  it("refuses a body over the size limit as too large, declared or streamed", async () => {
    for (const path of ["/big", "/big-chunked"]) {
      const started = Date.now()
      const error = await withIntake({ ...open, maxBytes: 100_000 }, (intake) =>
        failureOf(intake.fromUrl(server.url(path), "query.url"))
      )
      expect(error, path).toMatchObject({ _tag: "ImageTooLarge" })
      expect(Date.now() - started, path).toBeLessThan(2_000)
    }
  })

  it("times out a slow server within the configured time", async () => {
    const started = Date.now()
    const error = await withIntake({ ...open, fetchTimeoutMs: 300 }, (intake) =>
      failureOf(intake.fromUrl(server.url("/slow"), "query.url"))
    )
    expect(error).toMatchObject({ _tag: "ImageHostTimedOut" })
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it("refuses non-image content as unsupported", async () => {
    for (const path of ["/page.html", "/bytes"]) {
      const error = await withIntake(open, (intake) => failureOf(intake.fromUrl(server.url(path), "query.url")))
      expect(error, path).toMatchObject({ _tag: "ImageUnsupported" })
    }
  })

  it("reports the image server failing: an upstream 404, a refused connection or an unknown host", async () => {
    const missing = await withIntake(open, (intake) => failureOf(intake.fromUrl(server.url("/nope.jpg"), "query.url")))
    expect(missing).toMatchObject({ _tag: "ImageHostBadResponse", message: "query.url: the image server answered 404" })
    const port = await freePort()
    const refused = await withIntake(open, (intake) =>
      failureOf(intake.fromUrl(`http://127.0.0.1:${port}/x.jpg`, "query.url"))
    )
    expect(refused).toMatchObject({ _tag: "ImageHostUnreachable" })
    expect(refused.message).toContain("ECONNREFUSED")
    // RFC 6761: .invalid never resolves. A resolver that stalls instead ends in the timeout.
    const unknown = await withIntake({ fetchTimeoutMs: 3_000 }, (intake) =>
      failureOf(intake.fromUrl("http://no-such-host.invalid/x.jpg", "query.url"))
    )
    expect(isImageUnavailable(unknown)).toBe(true)
    expect(unknown.message).toMatch(/the host no-such-host\.invalid could not be resolved|did not answer/)
  })
})
