/** Polls GET /readyz until the api answers 200. */
export const waitUntilReady = async (baseUrl: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    // Each probe is bounded: a connection that never answers (a server still starting, a pooled
    // socket to a process that died) must not outlast the deadline.
    const ok = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`server at ${baseUrl} not ready after ${timeoutMs} ms`)
}

/** JSON request helper: returns status, headers and parsed body. */
export const call = async (
  baseUrl: string,
  method: string,
  urlPath: string,
  options: { auth?: string; body?: unknown; rawBody?: string } = {}
) => {
  const headers: Record<string, string> = {}
  if (options.auth) headers.authorization = options.auth
  let body: string | undefined
  if (options.rawBody !== undefined) body = options.rawBody
  else if (options.body !== undefined) body = JSON.stringify(options.body)
  if (body !== undefined) headers["content-type"] = "application/json"
  const res = await fetch(baseUrl + urlPath, { method, headers, body })
  const text = await res.text()
  let json: any
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined
  } catch {
    json = text
  }
  return { status: res.status, headers: res.headers, body: json }
}
