import { render } from "preact"
import { useEffect, useState } from "preact/hooks"
import { AnalyticsView } from "./AnalyticsView.js"
import type { Session } from "./api.js"
import { CampaignsView } from "./CampaignsView.js"
import { HealthView } from "./HealthView.js"
import { RulesView, SynonymsView } from "./Merchant.js"
import { PhotoView } from "./PhotoView.js"
import { ProductView } from "./ProductView.js"
import { SearchView } from "./SearchView.js"
import { SignIn } from "./SignIn.js"
import "./styles.css"

const STORED = "commerce-console-session"

type View = "search" | "photo" | "product" | "synonyms" | "rules" | "campaigns" | "analytics" | "health"

const MERCHANT_VIEWS: ReadonlySet<View> = new Set(["synonyms", "rules", "campaigns", "analytics", "health"])

const viewOf = (hash: string): View =>
  hash === "#/health"
    ? "health"
    : hash === "#/analytics"
      ? "analytics"
      : hash === "#/campaigns"
        ? "campaigns"
        : hash === "#/synonyms"
          ? "synonyms"
          : hash === "#/rules"
            ? "rules"
            : hash === "#/photo"
              ? "photo"
              : hash.startsWith("#/product/")
                ? "product"
                : "search"

const App = () => {
  const [session, setSession] = useState<Session | null>(() => {
    const stored = sessionStorage.getItem(STORED)
    return stored === null ? null : (JSON.parse(stored) as Session)
  })
  const [view, setView] = useState<View>(viewOf(location.hash))
  const [hash, setHash] = useState(location.hash)
  useEffect(() => {
    const onHash = () => {
      setView(viewOf(location.hash))
      setHash(location.hash)
    }
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
  const shown: View = merchant || !MERCHANT_VIEWS.has(view) ? view : "search"
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
          {link("photo", "Search by photo")}
          {merchant && link("synonyms", "Synonyms")}
          {merchant && link("rules", "Rules")}
          {merchant && link("campaigns", "Campaigns")}
          {merchant && link("analytics", "Analytics")}
          {merchant && link("health", "Catalog health")}
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
        {/* Kept while a product is open, so going back finds the listing as it was. */}
        <div hidden={shown !== "search"}>
          <SearchView session={session} visible={shown === "search"} />
        </div>
        {shown === "photo" && <PhotoView session={session} />}
        {shown === "product" && (
          <ProductView session={session} productId={decodeURIComponent(hash.slice("#/product/".length))} />
        )}
        {shown === "synonyms" && <SynonymsView session={session} />}
        {shown === "rules" && <RulesView session={session} />}
        {shown === "campaigns" && <CampaignsView session={session} />}
        {shown === "analytics" && <AnalyticsView session={session} />}
        {shown === "health" && <HealthView session={session} />}
      </main>
    </>
  )
}

render(<App />, document.getElementById("app")!)
