import { Duration, Effect } from "effect"
import dns from "node:dns"
import http from "node:http"
import https from "node:https"
import net from "node:net"
import type { AddressPolicy } from "./AddressPolicy.js"
import {
  ImageAddressRefused,
  imageFailure,
  ImageHostBadResponse,
  ImageHostTimedOut,
  ImageHostUnreachable,
  type ImageRejected,
  ImageTooLarge,
  type ImageUnavailable,
  ImageUnsupported,
  ImageUrlInvalid,
  megabytes
} from "./IntakeErrors.js"

export interface FetchLimits {
  readonly maxBytes: number
  readonly timeoutMs: number
  readonly maxRedirects: number
}

type Resolved = ReadonlyArray<{ readonly address: string; readonly family: number }>
type Hop =
  | { readonly _tag: "Redirect"; readonly location: string }
  | { readonly _tag: "Body"; readonly bytes: Uint8Array }

const REDIRECTS = new Set([301, 302, 303, 307, 308])
// Only what we decode, so a negotiating CDN does not answer with AVIF or HEIC.
const ACCEPT = "image/jpeg, image/png, image/webp, image/gif"
// A body we may still sniff: CDNs often label images generically.
const imageLike = (type: string) => /^(image\/|application\/octet-stream|binary\/octet-stream)/i.test(type.trim())

const parseTarget = (raw: string, field: string, base?: URL): Effect.Effect<URL, ImageRejected> =>
  Effect.suspend(() => {
    const via = base ? `redirected to ${raw}: ` : ""
    let url: URL
    try {
      url = new URL(raw, base)
    } catch {
      return Effect.fail(imageFailure(ImageUrlInvalid, field, `${via}not a valid URL`))
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return Effect.fail(
        imageFailure(ImageUrlInvalid, field, `${via}only http and https URLs are allowed, not ${url.protocol}`)
      )
    }
    // The URL parser keeps empty labels ("localhost..", "a..b"), which no DNS name has.
    if (net.isIP(url.hostname.replace(/^\[(.*)\]$/, "$1")) === 0 && /^\.|\.\./.test(url.hostname)) {
      return Effect.fail(imageFailure(ImageUrlInvalid, field, `${via}not a valid host name (${url.hostname})`))
    }
    return Effect.succeed(url)
  })

/** Every address the host resolves to must pass: a name may mix public and private ones. */
const resolveChecked = (
  url: URL,
  field: string,
  policy: AddressPolicy,
  via: string
): Effect.Effect<Resolved, ImageRejected | ImageUnavailable> =>
  Effect.gen(function* () {
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1") // IPv6 literals keep their brackets
    const byName = policy.hostRefusal(host)
    if (byName !== undefined) return yield* imageFailure(ImageAddressRefused, field, via + byName)
    const addresses: Resolved =
      net.isIP(host) !== 0
        ? [{ address: host, family: net.isIP(host) }]
        : yield* Effect.tryPromise({
            try: () => dns.promises.lookup(host, { all: true, verbatim: true }),
            catch: () => imageFailure(ImageHostUnreachable, field, `the host ${host} could not be resolved`)
          })
    for (const { address } of addresses) {
      const refusal = policy.addressRefusal(address)
      if (refusal !== undefined) return yield* imageFailure(ImageAddressRefused, field, via + refusal)
    }
    return addresses
  })

/**
 * Hands the socket the addresses already checked, so a DNS answer that changes between the
 * check and the connect (rebinding) is never used. Host header and SNI keep the real name.
 */
const pinnedLookup =
  (addresses: Resolved): net.LookupFunction =>
  (_hostname, options, callback) => {
    // Node's happy-eyeballs connect asks for all addresses; a plain connect for one.
    if (options.all)
      callback(
        null,
        addresses.map(({ address, family }) => ({ address, family }))
      )
    else callback(null, addresses[0].address, addresses[0].family)
  }

const requestOnce = (url: URL, addresses: Resolved, field: string, maxBytes: number) =>
  Effect.async<Hop, ImageRejected | ImageUnavailable>((resume) => {
    let settled = false
    const settle = (result: Effect.Effect<Hop, ImageRejected | ImageUnavailable>) => {
      if (settled) return
      settled = true
      req.destroy()
      resume(result)
    }
    const client = url.protocol === "https:" ? https : http
    const req = client.request(
      url,
      {
        // No pooled sockets: each hop connects to the addresses it checked, and nothing lingers.
        agent: false,
        lookup: pinnedLookup(addresses),
        headers: { accept: ACCEPT, "accept-encoding": "identity", "user-agent": "commerce-search-image-intake/1" }
      },
      (res) => {
        const status = res.statusCode ?? 0
        const location = res.headers.location
        if (REDIRECTS.has(status) && location) return settle(Effect.succeed({ _tag: "Redirect", location }))
        if (status < 200 || status > 299)
          return settle(imageFailure(ImageHostBadResponse, field, `the image server answered ${status}`))
        const type = res.headers["content-type"]
        if (type !== undefined && !imageLike(type)) {
          return settle(imageFailure(ImageUnsupported, field, `the URL returned ${type.split(";")[0]}, not an image`))
        }
        const tooLarge = () =>
          imageFailure(ImageTooLarge, field, `the image is larger than the limit of ${megabytes(maxBytes)}`)
        if (Number(res.headers["content-length"]) > maxBytes) return settle(tooLarge())
        // Counted while streaming: a missing or lying Content-Length cannot make us buffer more.
        const chunks: Array<Buffer> = []
        let size = 0
        res.on("data", (chunk: Buffer) => {
          size += chunk.length
          if (size > maxBytes) settle(tooLarge())
          else chunks.push(chunk)
        })
        res.on("end", () => settle(Effect.succeed({ _tag: "Body", bytes: Buffer.concat(chunks) })))
        res.on("error", () =>
          settle(imageFailure(ImageHostUnreachable, field, "the image server closed the connection early"))
        )
      }
    )
    req.on("error", (error: NodeJS.ErrnoException) =>
      settle(
        imageFailure(
          ImageHostUnreachable,
          field,
          `the image server could not be reached (${error.code ?? error.message})`
        )
      )
    )
    req.end()
    // Interruption (the overall timeout, a client gone) closes the socket.
    return Effect.sync(() => req.destroy())
  })

/**
 * GETs an image at full resolution, following redirects by hand so that every hop's scheme
 * and addresses are checked again. The timeout covers the whole chain, lookups included.
 */
export const fetchImageBytes = (
  raw: string,
  field: string,
  policy: AddressPolicy,
  limits: FetchLimits
): Effect.Effect<Uint8Array, ImageRejected | ImageUnavailable> =>
  Effect.gen(function* () {
    let url = yield* parseTarget(raw, field)
    for (let redirects = 0; ; redirects++) {
      // A refused redirect target is named: the client only knows the URL it sent.
      const via = redirects === 0 ? "" : `redirected to ${url.href}: `
      const addresses = yield* resolveChecked(url, field, policy, via)
      const hop = yield* requestOnce(url, addresses, field, limits.maxBytes)
      if (hop._tag === "Body") return hop.bytes
      if (redirects >= limits.maxRedirects) {
        return yield* imageFailure(
          ImageHostBadResponse,
          field,
          `the URL redirected more than ${limits.maxRedirects} times`
        )
      }
      url = yield* parseTarget(hop.location, field, url)
    }
  }).pipe(
    Effect.timeoutFail({
      duration: Duration.millis(limits.timeoutMs),
      onTimeout: () =>
        imageFailure(ImageHostTimedOut, field, `the image server did not answer within ${limits.timeoutMs} ms`)
    })
  )
