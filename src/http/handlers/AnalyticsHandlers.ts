import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { searchAnalytics } from "../../learning/AnalyticsReport.js"
import { requireScope } from "../../services/auth/Auth.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors } from "../ErrorMapping.js"

export const AnalyticsHandlers = HttpApiBuilder.group(CommerceApi, "analytics", (handlers) =>
  handlers.handle("searchAnalytics", ({ urlParams }) =>
    Effect.gen(function* () {
      const principal = yield* CurrentPrincipal
      yield* requireScope(principal, "site")
      return yield* restErrors(searchAnalytics(principal.siteId, urlParams))
    })
  )
)
