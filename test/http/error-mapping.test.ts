import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpLayerRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Data, Effect, Exit, Layer, Logger, LogLevel, Schema, Scope } from "effect"
import { createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  BadGateway,
  BadRequest,
  GatewayTimeout,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  UnprocessableImage,
  UnsupportedMediaType
} from "../../src/domain/Errors.js"
import { type ImageAnswers, restErrors, sessionErrors } from "../../src/http/ErrorMapping.js"
import {
  SessionBadRequestSchema,
  type SessionError,
  SessionImageTooLargeSchema,
  SessionNotFoundSchema,
  SessionUnavailableSchema,
  SessionUnprocessableImageSchema,
  SessionUnsupportedImageSchema
} from "../../src/http/LegacySessionApi.js"
import { RETRY_AFTER_SECONDS, responsePolicy } from "../../src/http/ResponsePolicy.js"
import { BackendFailure } from "../../src/platform/BackendFailure.js"
import { ChangeFeedError } from "../../src/platform/redis/ChangeFeed.js"
import { IndexError } from "../../src/services/catalog-index/CatalogIndex.js"
import { StoreError } from "../../src/services/catalog-store/CatalogStore.js"
import { AnalyzeError } from "../../src/services/image-analyzer/ImageAnalyzer.js"
import { LegacySessionTtl } from "../../src/search/LegacySessions.js"
import * as Intake from "../../src/services/image-intake/IntakeErrors.js"
import { QueueError } from "../../src/services/job-queue/JobQueue.js"
import { MemoryError } from "../../src/services/memory-log/MemoryLog.js"
import { RateLimiterError } from "../../src/services/rate-limiter/RateLimiter.js"
import { SessionStoreError } from "../../src/services/session-store/SessionStore.js"
import { SitesFileError } from "../../src/services/site-registry/SitesStore.js"
import { SuggestError } from "../../src/services/suggester/Suggester.js"
import { EmbedError } from "../../src/services/text-embedder/TextEmbedder.js"

/** Every backend error of src/services and src/platform, by tag. */
const backendFailures = {
  ChangeFeedError,
  IndexError,
  StoreError,
  AnalyzeError,
  QueueError,
  MemoryError,
  RateLimiterError,
  SessionStoreError,
  SitesFileError,
  SuggestError,
  EmbedError
}

/** The REST and legacy status of every intake failure: keyed by tag, so a new one must be added here. */
const imageStatuses: ImageAnswers<readonly [rest: number, session: number]> = {
  ImageMalformed: [400, 400],
  ImageUrlInvalid: [400, 400],
  ImageAddressRefused: [400, 400],
  ImageTooLarge: [413, 413],
  ImageUnsupported: [415, 415],
  ImageUndecodable: [415, 415],
  ImageTooManyPixels: [422, 422],
  ImageHostUnreachable: [502, 400],
  ImageHostBadResponse: [502, 400],
  ImageHostTimedOut: [504, 400]
}

const failureOf = (tag: string) => {
  if (Object.hasOwn(backendFailures, tag)) {
    return new backendFailures[tag as keyof typeof backendFailures]({ message: `${tag} went wrong` })
  }
  return new Intake[tag as keyof typeof imageStatuses]({ field: "query.image", message: `query.image: ${tag}` })
}

const tagPath = Schema.Struct({ tag: Schema.String })

/** A REST endpoint and a legacy session endpoint that fail with the failure named in the path. */
class Probe extends HttpApiGroup.make("probe")
  .add(
    HttpApiEndpoint.get("rest", "/rest/:tag")
      .setPath(tagPath)
      .addSuccess(Schema.String)
      .addError(BadRequest)
      .addError(ServiceUnavailable)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(UnprocessableImage)
      .addError(BadGateway)
      .addError(GatewayTimeout)
  )
  .add(
    HttpApiEndpoint.get("session", "/session/:tag")
      .setPath(tagPath)
      .addSuccess(Schema.String)
      .addError(SessionBadRequestSchema)
      .addError(SessionNotFoundSchema)
      .addError(SessionImageTooLargeSchema)
      .addError(SessionUnsupportedImageSchema)
      .addError(SessionUnprocessableImageSchema)
      .addError(SessionUnavailableSchema)
  ) {}
const ProbeApi = HttpApi.make("probe").add(Probe)

type Failure = ReturnType<typeof failureOf>
const failing = (tag: string): Effect.Effect<string, Failure> => Effect.fail(failureOf(tag))

const ProbeHandlers = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
  handlers
    .handle("rest", ({ path }) => restErrors(failing(path.tag)))
    .handle("session", ({ path }) => sessionErrors(7, "s-1", true)(failing(path.tag)))
)

let baseUrl = ""
const scope = Effect.runSync(Scope.make())
beforeAll(async () => {
  const routes = HttpLayerRouter.addHttpApi(ProbeApi).pipe(
    Layer.provide(ProbeHandlers),
    Layer.provide(responsePolicy(1_000_000))
  )
  const server = HttpLayerRouter.serve(routes, { disableLogger: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
    // Backend failures are logged as errors by design; the run stays quiet.
    Layer.provide(Logger.minimumLogLevel(LogLevel.None)),
    Layer.provide(LegacySessionTtl.layer)
  )
  const context = await Effect.runPromise(Layer.buildWithScope(server, scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  baseUrl = `http://127.0.0.1:${address.port}`
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const get = async (path: string) => {
  const res = await fetch(baseUrl + path)
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: (await res.json()) as Record<string, unknown>
  }
}

describe("backend failures", () => {
  it("answer every REST request with 503, Retry-After and the backend's message", async () => {
    for (const tag of Object.keys(backendFailures)) {
      const res = await get(`/rest/${tag}`)
      expect([tag, res.status, res.retryAfter]).toEqual([tag, 503, String(RETRY_AFTER_SECONDS)])
      expect(res.body, tag).toEqual({ message: `temporarily unavailable: ${tag} went wrong` })
    }
  })

  it("answer every legacy session request with a 503 search exception naming the backend error", async () => {
    for (const tag of Object.keys(backendFailures)) {
      const res = await get(`/session/${tag}`)
      expect([tag, res.status, res.retryAfter]).toEqual([tag, 503, String(RETRY_AFTER_SECONDS)])
      expect(res.body, tag).toEqual({
        message: `temporarily unavailable: ${tag} went wrong`,
        data: { "site-id": 7, "search-id": "s-1" },
        debug: `${tag}: ${tag} went wrong`
      })
    }
  })
})

describe("image intake failures", () => {
  it("answer with the status of each API and the intake's message", async () => {
    for (const [tag, [rest, session]] of Object.entries(imageStatuses)) {
      const restRes = await get(`/rest/${tag}`)
      expect([tag, restRes.status, restRes.body.message]).toEqual([tag, rest, `query.image: ${tag}`])
      const sessionRes = await get(`/session/${tag}`)
      expect([tag, sessionRes.status, sessionRes.body]).toEqual([
        tag,
        session,
        { message: `query.image: ${tag}`, data: { "site-id": 7, "search-id": "s-1" }, debug: tag }
      ])
    }
  })
})

// Type-level: checked by tsc, which runs over test/ too.
class NewBackendError extends BackendFailure("NewBackendError") {}
class UnmappedError extends Data.TaggedError("UnmappedError")<{ readonly message: string }> {}

describe("what the types allow", () => {
  it("maps a new backend error without anyone listing it, and keeps any other error in the error channel", () => {
    const mapped: Effect.Effect<never, ServiceUnavailable> = restErrors(
      Effect.fail(new NewBackendError({ message: "down" }))
    )
    // @ts-expect-error an error that is no backend failure is not turned into a 503
    const unmapped: Effect.Effect<never, ServiceUnavailable> = restErrors(
      Effect.fail(new UnmappedError({ message: "?" }))
    )
    // @ts-expect-error a lookalike with a backend tag is not a backend failure either
    const lookalike: BackendFailure = { _tag: "IndexError", message: "down" }
    // biome-ignore format: @ts-expect-error covers one line, and the statement must stay on it
    // @ts-expect-error the legacy endpoints take only the failures their mapping knows
    const session: Effect.Effect<never, SessionError> = sessionErrors(1, null, true)(Effect.fail(new UnmappedError({ message: "?" })))
    // @ts-expect-error an intake answer table must answer every intake failure
    const partial: ImageAnswers<number> = { ImageMalformed: 400 }
    expect([mapped, unmapped, lookalike, session, partial]).toHaveLength(5)
  })

  it("refuses a handler whose error the endpoint does not declare", () => {
    const group = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
      handlers
        // @ts-expect-error restErrors passes an unmapped error on, and the endpoint refuses it: no silent 500
        .handle("rest", () => restErrors(Effect.fail(new UnmappedError({ message: "?" }))))
        .handle("session", ({ path }) =>
          sessionErrors(7, path.tag, false)(Effect.fail(new NotFound({ message: "gone" })))
        )
    )
    expect(group).toBeDefined()
  })
})
