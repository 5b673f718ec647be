import { useState } from "preact/hooks"
import { ApiError, call, type Session } from "./api.js"

/**
 * Signing in with the site's Basic credentials (every view) or a read-only token (the shopper's
 * view only). The credentials are checked with a call each scope may make.
 */
export const SignIn = ({ onSignedIn }: { readonly onSignedIn: (session: Session) => void }) => {
  const [kind, setKind] = useState<"site" | "read">("site")
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const [token, setToken] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    const session: Session =
      kind === "site"
        ? { authorization: `Basic ${btoa(`${username}:${password}`)}`, scope: "site" }
        : { authorization: `Bearer ${token.trim().replace(/^Bearer\s+/i, "")}`, scope: "read" }
    try {
      if (session.scope === "site") await call(session, "GET", "/campaigns")
      else await call(session, "POST", "/text-search", { resultsCount: 1, analytics: false })
      onSignedIn(session)
    } catch (e) {
      setError(
        e instanceof ApiError && e.status === 401
          ? kind === "site"
            ? "Wrong username or password."
            : "This token is not valid (or has expired)."
          : String((e as Error).message)
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <main class="sign-in">
      <h1>Sign in to the console</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <fieldset>
          <legend>With</legend>
          <label>
            <input type="radio" name="kind" checked={kind === "site"} onChange={() => setKind("site")} /> Site
            credentials
          </label>
          <label>
            <input type="radio" name="kind" checked={kind === "read"} onChange={() => setKind("read")} /> A read-only
            token
          </label>
        </fieldset>
        {kind === "site" ? (
          <>
            <label>
              Username
              <input
                name="username"
                autocomplete="username"
                required
                value={username}
                onInput={(e) => setUsername(e.currentTarget.value)}
              />
            </label>
            <label>
              Password
              <input
                name="password"
                type="password"
                autocomplete="current-password"
                required
                value={password}
                onInput={(e) => setPassword(e.currentTarget.value)}
              />
            </label>
          </>
        ) : (
          <label>
            Token
            <input name="token" required value={token} onInput={(e) => setToken(e.currentTarget.value)} />
          </label>
        )}
        {error !== null && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  )
}
