import { Config, Context, Effect, Either, Layer, ParseResult, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { decodeCategoryPath, encodeCategoryPath, parseCategoryPath } from "../domain/CategoryPath.js"
import { BadRequest, NotFound } from "../domain/Errors.js"
import type { FilterClause } from "../domain/Filters.js"
import { Rectangle } from "../domain/Interactions.js"
import {
  type DetectedObject,
  type LegacyAction,
  type LegacyDetectedObjects,
  type LegacyLinks,
  type LegacyMessage,
  type LegacySearchSession,
  LegacySessionQuery
} from "../domain/LegacySession.js"
import type { ResultEntity } from "../domain/ResultEntity.js"
import type { DetectedObject as AnalyzerObject } from "../services/image-analyzer/ImageAnalyzer.js"
import type { DecodedImage } from "../services/image-intake/IntakeErrors.js"
import { ImageIntake } from "../services/image-intake/ImageIntake.js"
import { type LegacySessionState, SessionStore, type StoredImageRef } from "../services/session-store/SessionStore.js"
import { detectObjects, rankByImage, visualScope } from "./VisualSearch.js"

/**
 * Deprecated legacy search sessions (spec: POST /search/session, GET /search/session/{id},
 * …/detect-objects, …/upload-image), built on the visual search ranking (`visualScope` and
 * `rankByImage` of VisualSearch.ts), so a session search ranks exactly as POST /visual-search.
 *
 * Lifecycle (the spec leaves it open):
 * - POST decodes the image with the visual-search intake rules, validates campaign and
 *   `excluded[]`, runs the search and object detection, and only then creates the session:
 *   a failed POST leaves nothing behind. The id is 144 random bits, Base64-URL (24 characters).
 * - The session state and its image live in the SessionStore (per site, never on disk) with a
 *   sliding TTL of LEGACY_SESSION_TTL_SECONDS (default 1800 = 30 minutes): every GET,
 *   detect-objects and upload-image restarts it for the session and its images. After that
 *   long without use every call answers 404. The TTL is read per request, so a change applies
 *   to sessions created (or uploaded to) afterwards.
 * - A session is bound to the site of the credentials that created it; another site's
 *   credentials get 404 for it (the same answer as an unknown id, so ids cannot be probed).
 *   Either scheme (Bearer read-only token or Basic) may use every session endpoint, including
 *   the PUT upload-image: it changes only the shopper's temporary session, not the catalog.
 * - The campaign and `excluded[]` given at creation stay with the session. A GET's campaign-id
 *   applies to that search only; without one the session's campaign is used.
 * - After PUT upload-image every search of the session uses the high-resolution image (whole
 *   image and search areas). Detected objects stay those found at creation: their rectangles
 *   are relative, so they hold for the high-resolution image of the same photo.
 */

/** Environment variable holding the session TTL in seconds (sliding). */
export const LEGACY_SESSION_TTL_ENV = "LEGACY_SESSION_TTL_SECONDS"
export const DEFAULT_LEGACY_SESSION_TTL_SECONDS = 30 * 60
/** How many category links `filters.value.categories` offers at most. */
const MAX_CATEGORY_LINKS = 5

/**
 * The session TTL, read once at startup; an invalid setting is logged and the default used (a
 * typo must not keep the api from starting for a deprecated endpoint).
 */
/** LEGACY_SESSION_TTL_SECONDS: how long a legacy session lives after its last use. */
export const LegacySessionTtlSeconds = Config.number(LEGACY_SESSION_TTL_ENV).pipe(
  Config.validate({ message: "must be a positive number of seconds", validation: (n) => Number.isFinite(n) && n > 0 }),
  Config.withDefault(DEFAULT_LEGACY_SESSION_TTL_SECONDS)
)

export class LegacySessionTtl extends Context.Tag("LegacySessionTtl")<
  LegacySessionTtl,
  { readonly seconds: number }
>() {
  static readonly layer = Layer.effect(
    LegacySessionTtl,
    LegacySessionTtlSeconds.pipe(
      Effect.catchAll((error) =>
        Effect.logWarning(
          `${LEGACY_SESSION_TTL_ENV} is invalid; using ${DEFAULT_LEGACY_SESSION_TTL_SECONDS} s`,
          error
        ).pipe(Effect.as(DEFAULT_LEGACY_SESSION_TTL_SECONDS))
      ),
      Effect.map((seconds) => ({ seconds }))
    )
  )
}

/** The `image` of a request: raw bytes (a file part or a raw body) or base64 / a data URL text. */
export type SessionImageInput =
  | { readonly _tag: "Bytes"; readonly bytes: Uint8Array }
  | { readonly _tag: "Text"; readonly data: string }

/** Where the response's links point: the service's own absolute base URL ("http://host:port"). */
export interface LinkContext {
  readonly baseUrl: string
}

type Area = typeof Rectangle.Type

/** What one session search looks at; every link of the answer keeps it (except where it changes one part). */
interface View {
  readonly campaignId?: number | undefined
  /** Encoded category path. */
  readonly category?: string | undefined
  readonly area?: Area | undefined
}

const IMAGE_FIELD = "image"
const imageKey = (sessionId: string) => `ls:${sessionId}`
const highResKey = (sessionId: string) => `ls:${sessionId}:hr`
/** Ids we issue are 24 characters; anything much longer is not worth a store lookup. */
const MAX_ID_LENGTH = 128

const newSessionId = () => randomBytes(18).toString("base64url")

const toRef = (image: DecodedImage): StoredImageRef => ({
  bytes: image.bytes,
  format: image.format,
  width: image.width,
  height: image.height,
  sha256: image.sha256
})
const fromRef = (stored: StoredImageRef): DecodedImage => ({
  ...stored,
  format: stored.format as DecodedImage["format"]
})

// ---------------------------------------------------------------------------------------------
// Query parameters
// ---------------------------------------------------------------------------------------------

const describeParseError = (error: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ")

/** campaign-id and excluded[] (spec); a malformed one is a 400 naming the parameter. */
const parseSessionQuery = (params: Readonly<Record<string, unknown>>) =>
  Schema.decodeUnknown(LegacySessionQuery)({
    ...(params["campaign-id"] !== undefined ? { "campaign-id": params["campaign-id"] } : {}),
    ...(params["excluded[]"] !== undefined ? { "excluded[]": params["excluded[]"] } : {})
  }).pipe(Effect.mapError((e) => new BadRequest({ message: describeParseError(e) })))

const AREA_KEYS = ["left", "top", "width", "height"] as const

/** The GET extensions: `category` (encoded path) and the search area (all four numbers or none). */
const parseView = (params: Readonly<Record<string, string | undefined>>) =>
  Effect.gen(function* () {
    const category = params.category
    const decoded = category === undefined ? undefined : decodeCategoryPath(category)
    if (decoded !== undefined && Either.isLeft(decoded))
      return yield* new BadRequest({ message: `category: ${decoded.left}` })
    const given = AREA_KEYS.filter((k) => params[k] !== undefined)
    if (given.length === 0) return { category, area: undefined }
    if (given.length < 4) {
      return yield* new BadRequest({
        message:
          `search area: give all of left, top, ` +
          `width and height (missing: ${AREA_KEYS.filter((k) => params[k] === undefined).join(", ")})`
      })
    }
    const numbers: Record<string, number> = {}
    for (const k of AREA_KEYS) {
      const text = params[k]!.trim()
      const n = text === "" ? Number.NaN : Number(text)
      if (!Number.isFinite(n)) return yield* new BadRequest({ message: `${k}: must be a number in [0,1]` })
      numbers[k] = n
    }
    const area = yield* Schema.decodeUnknown(Rectangle)(numbers).pipe(
      Effect.mapError((e) => new BadRequest({ message: `search area: ${describeParseError(e)}` }))
    )
    return { category, area }
  })

/** Filter errors name the legacy parameters rather than the POST body fields they become. */
const renameFilterFields = (e: BadRequest) =>
  new BadRequest({
    message: e.message
      .replace(/staticFilters\.excluded\.(\d+)(\.column|\.values(\.\d+)?)?/g, "excluded[$1]")
      .replace(/dynamicFilters\.0(\.column|\.values(\.\d+)?)?/g, "category")
  })

// ---------------------------------------------------------------------------------------------
// Images
// ---------------------------------------------------------------------------------------------

/** The same intake as POST /visual-search: size limit, format sniffing, pixel limit. */
const decodeImage = (input: SessionImageInput | undefined) =>
  Effect.gen(function* () {
    const intake = yield* ImageIntake
    if (input === undefined) {
      return yield* new BadRequest({
        message: `${IMAGE_FIELD}: an image is required (multipart/form-data field "${IMAGE_FIELD}")`
      })
    }
    return input._tag === "Bytes"
      ? yield* intake.decode(input.bytes, IMAGE_FIELD)
      : yield* intake.fromData(input.data, IMAGE_FIELD)
  })

// ---------------------------------------------------------------------------------------------
// Hypermedia
// ---------------------------------------------------------------------------------------------

const round4 = (n: number) => Math.round(n * 1e4) / 1e4

/** Rounded for links, kept inside the image: right and bottom are rounded, not the sizes. */
const linkArea = (r: {
  readonly left: number
  readonly top: number
  readonly width: number
  readonly height: number
}): Area => {
  const clamp = (n: number) => Math.min(1, Math.max(0, n))
  const left = round4(clamp(r.left))
  const top = round4(clamp(r.top))
  const right = Math.max(left, round4(clamp(r.left + r.width)))
  const bottom = Math.max(top, round4(clamp(r.top + r.height)))
  return { left, top, width: round4(right - left), height: round4(bottom - top) }
}

const sessionPath = (sessionId: string) => `/search/session/${encodeURIComponent(sessionId)}`

const viewParams = (view: View): Array<[string, string]> => [
  ...(view.campaignId !== undefined ? [["campaign-id", String(view.campaignId)] as [string, string]] : []),
  ...(view.category !== undefined ? [["category", view.category] as [string, string]] : []),
  ...(view.area !== undefined ? AREA_KEYS.map((k): [string, string] => [k, String(view.area![k])]) : [])
]

const href = (links: LinkContext, path: string, params: ReadonlyArray<[string, string]> = []) => {
  const url = new URL(path, links.baseUrl)
  for (const [k, v] of params) url.searchParams.set(k, v)
  return url.toString()
}

const searchHref = (links: LinkContext, sessionId: string, view: View) =>
  href(links, sessionPath(sessionId), viewParams(view))

/** Each detected object links to the session search of its rectangle (keeping campaign and category). */
const objectsWithLinks = (
  links: LinkContext,
  sessionId: string,
  view: View,
  objects: ReadonlyArray<DetectedObject["value"]>
): Array<DetectedObject> =>
  objects.map((value) => ({
    value,
    links: {
      search: { method: "GET", href: searchHref(links, sessionId, { ...view, area: linkArea(value.rectangle) }) }
    }
  }))

/** Analyzer detections in the legacy shape: score as an integer percentage. */
const legacyObjects = (objects: ReadonlyArray<AnalyzerObject>): Array<DetectedObject["value"]> =>
  objects.map((o) => ({
    classId: o.classId,
    class: o.class,
    score: Math.round(o.score * 100),
    rectangle: { left: o.rectangle.left, top: o.rectangle.top, width: o.rectangle.width, height: o.rectangle.height }
  }))

/**
 * Category links: the leaf product_type paths of the results, most frequent first (ties: the
 * better-ranked result first), at most five. Each is named by its last label (the whole path
 * when two offered paths share that label) and links to the session search within it.
 */
const categoryLinks = (links: LinkContext, sessionId: string, view: View, products: ReadonlyArray<ResultEntity>) => {
  const counts = new Map<string, { count: number; first: number }>()
  products.forEach((p, rank) => {
    const paths = new Set(
      (p.productType ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s.length > 0)
    )
    for (const path of paths) {
      const entry = counts.get(path)
      if (entry) entry.count++
      else counts.set(path, { count: 1, first: rank })
    }
  })
  const chosen = [...counts.entries()]
    .sort((a, b) => b[1].count - a[1].count || a[1].first - b[1].first)
    .slice(0, MAX_CATEGORY_LINKS)
    .map(([path]) => ({ path, label: parseCategoryPath(path).at(-1) ?? path }))
  return chosen.map(({ label, path }) => ({
    name: chosen.filter((c) => c.label === label).length > 1 ? path : label,
    method: "GET",
    href: searchHref(links, sessionId, { ...view, category: encodeCategoryPath(path) })
  }))
}

const sessionLinks = (links: LinkContext, sessionId: string, view: View): LegacyLinks => ({
  self: { method: "GET", href: searchHref(links, sessionId, view) },
  "detect-objects": { method: "GET", href: href(links, `${sessionPath(sessionId)}/detect-objects`) },
  "upload-image": { method: "PUT", href: href(links, `${sessionPath(sessionId)}/upload-image`) }
})

/**
 * The search-area form: GET the session with the four rectangle fields (prefilled with the
 * current area, or the whole image) and, as hidden fields, the current campaign and category.
 */
const searchAreaAction = (links: LinkContext, sessionId: string, view: View): LegacyAction => {
  const area = view.area ?? { left: 0, top: 0, width: 1, height: 1 }
  return {
    rel: ["search-area"],
    value: [
      ...AREA_KEYS.map((k) => ({ name: k, value: String(area[k]) })),
      ...viewParams({ campaignId: view.campaignId, category: view.category }).map(([name, value]) => ({ name, value }))
    ],
    method: "GET",
    href: href(links, sessionPath(sessionId))
  }
}

/** The upload form: PUT multipart/form-data with one file field, `image` (or the raw image as the body). */
const uploadAction = (links: LinkContext, sessionId: string): LegacyAction => ({
  rel: ["upload-high-resolution-image"],
  value: [{ name: IMAGE_FIELD, value: "" }],
  method: "PUT",
  href: href(links, `${sessionPath(sessionId)}/upload-image`)
})

// ---------------------------------------------------------------------------------------------
// Searching
// ---------------------------------------------------------------------------------------------

const search = (
  siteId: number,
  images: { readonly image: DecodedImage; readonly highRes: DecodedImage | null },
  scope: {
    readonly campaignId: number | undefined
    readonly excluded: ReadonlyArray<FilterClause>
    readonly view: View
  }
) =>
  Effect.gen(function* () {
    const filters = yield* visualScope(siteId, {
      campaign: scope.campaignId,
      staticFilters: scope.excluded.length > 0 ? { excluded: scope.excluded } : undefined,
      dynamicFilters:
        scope.view.category !== undefined ? [{ column: "category", values: [scope.view.category] }] : undefined
    }).pipe(Effect.mapError(renameFilterFields))
    const ranked = yield* rankByImage(siteId, filters, images, scope.view.area)
    return ranked.products
  })

const sessionObject = (
  links: LinkContext,
  sessionId: string,
  view: View,
  products: ReadonlyArray<ResultEntity>,
  objects: ReadonlyArray<DetectedObject["value"]>
): LegacySearchSession => ({
  value: products,
  type: "visual-search",
  searchArea: searchAreaAction(links, sessionId, view),
  uploadHighResolutionImage: uploadAction(links, sessionId),
  filters: { type: "category", value: { categories: categoryLinks(links, sessionId, view, products) } },
  links: sessionLinks(links, sessionId, view),
  detectedObjects: objectsWithLinks(links, sessionId, view, objects)
})

const notFound = (sessionId: string) =>
  new NotFound({ message: `search session "${sessionId}" not found: it does not exist or has expired` })

/**
 * The session and its images, or 404. Every use restarts the TTL of the session and of both
 * images (SessionStore gets are sliding), so they expire together. The high-resolution image
 * is looked up under its fixed key, so a concurrent state write cannot hide it.
 */
const loadSession = (siteId: number, sessionId: string) =>
  Effect.gen(function* () {
    if (sessionId.length === 0 || sessionId.length > MAX_ID_LENGTH) return yield* notFound(sessionId)
    const store = yield* SessionStore
    const state = yield* store.getSession(siteId, sessionId)
    if (state === null || state.siteId !== siteId) return yield* notFound(sessionId)
    const image = yield* store.getImage(siteId, state.imageKey)
    if (image === null) return yield* notFound(sessionId)
    const highRes = yield* store.getImage(siteId, state.highResImageKey ?? highResKey(sessionId))
    return { state, image: fromRef(image), highRes: highRes === null ? null : fromRef(highRes) }
  })

/** POST /search/session. */
export const createSession = (
  siteId: number,
  input: { readonly params: Readonly<Record<string, unknown>>; readonly image: SessionImageInput | undefined },
  links: LinkContext
) =>
  Effect.gen(function* () {
    const query = yield* parseSessionQuery(input.params)
    const image = yield* decodeImage(input.image)
    const excluded = query.excluded ?? []
    const view: View = { campaignId: query.campaignId }
    const sessionId = newSessionId()
    const [products, objects] = yield* Effect.all(
      [
        search(siteId, { image, highRes: null }, { campaignId: query.campaignId, excluded, view }),
        Effect.map(detectObjects(image), legacyObjects)
      ],
      { concurrency: 2 }
    )

    const store = yield* SessionStore
    const ttl = (yield* LegacySessionTtl).seconds
    const state: LegacySessionState = {
      sessionId,
      siteId,
      createdAt: new Date().toISOString(),
      ...(query.campaignId !== undefined ? { campaignId: query.campaignId } : {}),
      excluded,
      imageKey: imageKey(sessionId),
      detectedObjects: objects
    }
    yield* store.putImage(siteId, state.imageKey, toRef(image), ttl)
    yield* store.putSession(siteId, sessionId, state, ttl)
    return sessionObject(links, sessionId, view, products, objects)
  })

/** GET /search/session/{id}: the search again, on the high-resolution image once uploaded. */
export const searchSession = (
  siteId: number,
  sessionId: string,
  params: Readonly<Record<string, string | undefined>>,
  links: LinkContext
) =>
  Effect.gen(function* () {
    const query = yield* parseSessionQuery(params)
    const { area, category } = yield* parseView(params)
    const { highRes, image, state } = yield* loadSession(siteId, sessionId)
    const campaignId = query.campaignId ?? state.campaignId
    const view: View = { campaignId: query.campaignId, category, area }
    const images = highRes !== null ? { image: highRes, highRes } : { image, highRes: null }
    const products = yield* search(siteId, images, { campaignId, excluded: state.excluded, view })
    const objects = state.detectedObjects ?? legacyObjects(yield* detectObjects(image))
    return sessionObject(links, sessionId, view, products, objects)
  })

/** GET /search/session/{id}/detect-objects: found at creation, so this is a lookup. */
export const sessionObjects = (siteId: number, sessionId: string, links: LinkContext) =>
  Effect.gen(function* () {
    const { image, state } = yield* loadSession(siteId, sessionId)
    const objects = state.detectedObjects ?? legacyObjects(yield* detectObjects(image))
    return { value: objectsWithLinks(links, sessionId, {}, objects) } satisfies LegacyDetectedObjects
  })

/** PUT /search/session/{id}/upload-image: replaces any earlier high-resolution image. */
export const uploadSessionImage = (siteId: number, sessionId: string, input: SessionImageInput | undefined) =>
  Effect.gen(function* () {
    const { state } = yield* loadSession(siteId, sessionId)
    const image = yield* decodeImage(input)
    const store = yield* SessionStore
    const ttl = (yield* LegacySessionTtl).seconds
    const key = highResKey(sessionId)
    yield* store.putImage(siteId, key, toRef(image), ttl)
    yield* store.putSession(siteId, sessionId, { ...state, highResImageKey: key }, ttl)
    return {
      message: `high-resolution image (${image.width}×${image.height}) stored for search session ${sessionId}`
    } satisfies LegacyMessage
  })
