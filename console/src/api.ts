/** The signed-in session: the Authorization header every call sends, and what it may do. */
export interface Session {
  readonly authorization: string
  /** "site": Basic credentials (merchant views); "read": a read-only token (the shopper's view). */
  readonly scope: "site" | "read"
}

/** An answer other than 2xx: its status and the API's own message (which names the field). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

/** One call to the api this page is served by. */
export const call = async <T>(session: Session, method: string, path: string, body?: unknown): Promise<T> => {
  const headers: Record<string, string> = { authorization: session.authorization }
  if (body !== undefined) headers["content-type"] = "application/json"
  const res = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const text = await res.text()
  const json = text === "" ? undefined : (JSON.parse(text) as unknown)
  if (!res.ok) {
    const message = (json as { message?: unknown } | undefined)?.message
    throw new ApiError(res.status, typeof message === "string" ? message : `${res.status} ${res.statusText}`)
  }
  return json as T
}

/** Wire shapes the console reads (see the API manual); only the fields it shows. */
export interface FilterValue {
  readonly value: string | ReadonlyArray<string> | { readonly start?: number; readonly end?: number }
  readonly label: string
  readonly active: boolean
  readonly selected: boolean
  readonly count: number
}
export interface Facet {
  readonly type: "categorical" | "interval"
  readonly column: string
  readonly label: string
  readonly values: ReadonlyArray<FilterValue>
}
export interface Explanation {
  readonly score: number
  readonly lexical: number
  readonly semantic: number
  readonly popularity: number
  readonly boosts: number
  readonly promoted?: { readonly by: string; readonly position: number }
}
export interface Product {
  readonly productId: string
  readonly title: string
  readonly brand?: string | null
  readonly images?: ReadonlyArray<{ readonly original: string; readonly thumbnail: string | null }>
  readonly price?: { readonly actual: number | null; readonly sale: number | null } | null
  readonly availability?: string
  readonly color?: string
  readonly variants?: { readonly count: number; readonly colors: ReadonlyArray<string> }
  readonly highlight?: { readonly title?: string }
  readonly explanation?: Explanation
}
export interface SearchAnswer {
  readonly requestId: string
  readonly data: {
    readonly products: ReadonlyArray<Product>
    readonly total?: number
    readonly interactions?: {
      readonly dynamicFilters: ReadonlyArray<Facet>
      readonly redirect?: { readonly url: string }
    }
    readonly appliedRules?: ReadonlyArray<string>
    readonly userData?: ReadonlyArray<Record<string, unknown>>
    readonly explanation?: {
      readonly searched: string
      readonly synonyms: ReadonlyArray<{ readonly words: string; readonly alternatives: ReadonlyArray<string> }>
    }
  }
  readonly stream?: {
    readonly items: ReadonlyArray<{ readonly parts: ReadonlyArray<{ readonly text?: { readonly content: string } }> }>
  }
}
