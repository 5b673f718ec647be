import { render } from "preact"
import { useEffect, useState } from "preact/hooks"
import type { Session } from "./api.js"
import { RulesView, SynonymsView } from "./Merchant.js"
import { SearchView } from "./SearchView.js"
import { SignIn } from "./SignIn.js"
import "./styles.css"

const STORED = "commerce-console-session"

type View = "search" | "synonyms" | "rules"

const viewOf = (hash: string): View => (hash === "#/synonyms" ? "synonyms" : hash === "#/rules" ? "rules" : "search")

const App = () => {
  const [session, setSession] = useState<Session | null>(() => {
    const stored = sessionStorage.getItem(STORED)
    return stored === null ? null : (JSON.parse(stored) as Session)
  })
  const [view, setView] = useState<View>(viewOf(location.hash))
  useEffect(() => {
    const onHash = () => setView(viewOf(location.hash))
    addEventListener("hashchange", onHash)
    return () => removeEventListener("hashchange", onHash)
  }, [])
  const signedIn = (next: Session) => {
    sessionStorage.setItem(STORED, JSON.stringify(next))
    setSession(next)
  }
  if (session === null) return <SignIn onSignedIn={signedIn} />
  const merchant = session.scope === "site"
  // A read-only token never sees merchant views, whatever the address says.
  const shown: View = merchant ? view : "search"
  const link = (to: View, label: string) => (
    <a href={`#/${to}`} aria-current={shown === to ? "page" : undefined}>
      {label}
    </a>
  )
  return (
    <>
      <header class="top">
        <strong>Commerce search</strong>
        <nav aria-label="Console">
          {link("search", "Search preview")}
          {merchant && link("synonyms", "Synonyms")}
          {merchant && link("rules", "Rules")}
        </nav>
        <button
          type="button"
          onClick={() => {
            sessionStorage.removeItem(STORED)
            setSession(null)
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        {shown === "search" && <SearchView session={session} />}
        {shown === "synonyms" && <SynonymsView session={session} />}
        {shown === "rules" && <RulesView session={session} />}
      </main>
    </>
  )
}

render(<App />, document.getElementById("app")!)
