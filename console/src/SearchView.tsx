import { useEffect, useRef, useState } from "preact/hooks"
import { call, type Facet, type FilterValue, type SearchAnswer, type Session } from "./api.js"
import { ResultTile } from "./ResultTile.js"

const PAGE = 12

const SORTS: ReadonlyArray<{ readonly label: string; readonly sort?: { column: string; order: "asc" | "desc" } }> = [
  { label: "Relevance" },
  { label: "Price: low to high", sort: { column: "price", order: "asc" } },
  { label: "Price: high to low", sort: { column: "price", order: "desc" } },
  { label: "Newest", sort: { column: "newest", order: "desc" } },
  { label: "Popular", sort: { column: "popular", order: "desc" } }
]

/** A facet value the shopper chose. */
interface Choice {
  readonly column: string
  readonly type: Facet["type"]
  readonly value: FilterValue["value"]
  readonly label: string
}

const sameValue = (a: FilterValue["value"], b: FilterValue["value"]) => JSON.stringify(a) === JSON.stringify(b)

/** The choices as the request's dynamic filters: a column's values OR-ed, an interval alone. */
const dynamicFilters = (choices: ReadonlyArray<Choice>) => {
  const byColumn = new Map<string, Array<Choice>>()
  for (const choice of choices) byColumn.set(choice.column, [...(byColumn.get(choice.column) ?? []), choice])
  return [...byColumn].map(([column, chosen]) =>
    chosen[0].type === "interval"
      ? { column, values: chosen[0].value }
      : {
          column,
          values: chosen.flatMap((c) => (typeof c.value === "string" ? [c.value] : (c.value as ReadonlyArray<string>)))
        }
  )
}

/** The stream's refinement ("Narrow down to **Acme** (3)?") as the facet value it names. */
const refinementOf = (answer: SearchAnswer): Choice | null => {
  const content = answer.stream?.items[0]?.parts.find((part) => part.text !== undefined)?.text?.content
  const label = content === undefined ? undefined : /\*\*(.+?)\*\*/.exec(content)?.[1]
  if (label === undefined) return null
  for (const facet of answer.data.interactions?.dynamicFilters ?? [])
    for (const value of facet.values)
      if (value.label === label && !value.selected)
        return { column: facet.column, type: facet.type, value: value.value, label: `${facet.label}: ${value.label}` }
  return null
}

const bannerText = (data: Record<string, unknown>) =>
  typeof data.banner === "string" ? data.banner : typeof data.message === "string" ? data.message : JSON.stringify(data)

/** Search as a shopper sees it, through the same endpoints a shop's front end calls. */
export const SearchView = ({ session, visible }: { readonly session: Session; readonly visible: boolean }) => {
  const [text, setText] = useState("")
  const [query, setQuery] = useState<string | null>(null)
  const [suggestions, setSuggestions] = useState<ReadonlyArray<string>>([])
  const [choices, setChoices] = useState<ReadonlyArray<Choice>>([])
  const [sortIndex, setSortIndex] = useState(0)
  const [offset, setOffset] = useState(0)
  const [campaign, setCampaign] = useState<number | null>(null)
  const [campaigns, setCampaigns] = useState<ReadonlyArray<{ id: number; name?: string }>>([])
  const [shown, setShown] = useState<{ readonly answer: SearchAnswer; readonly offset: number } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const typed = useRef(0)
  const box = useRef<HTMLInputElement>(null)
  const list = useRef<HTMLUListElement>(null)
  const moveFocus = (index: number) => list.current?.querySelectorAll("button")[index]?.focus()

  // Read again whenever the view is shown: a campaign may have been added meanwhile.
  useEffect(() => {
    if (session.scope !== "site" || !visible) return
    call<{ items: Array<{ id: number; name?: string }> }>(session, "GET", "/campaigns").then(
      (list) => setCampaigns(list.items),
      () => setCampaigns([])
    )
  }, [session, visible])

  useEffect(() => {
    if (query === null) return
    const sort = SORTS[sortIndex].sort
    call<SearchAnswer>(session, "POST", "/text-search", {
      query,
      resultsCount: PAGE,
      offset,
      explain: true,
      // A merchant looking is no shopper searching.
      analytics: false,
      ...(sort ? { sort: [sort] } : {}),
      ...(choices.length > 0 ? { dynamicFilters: dynamicFilters(choices) } : {}),
      ...(campaign === null ? {} : { campaign })
    }).then(
      (next) => {
        setShown({ answer: next, offset })
        setError(null)
      },
      (e: Error) => setError(e.message)
    )
  }, [session, query, choices, sortIndex, offset, campaign])

  const suggest = (value: string) => {
    setText(value)
    const mine = ++typed.current
    if (value.trim() === "") return setSuggestions([])
    setTimeout(() => {
      if (mine !== typed.current) return
      call<{ data: { completions: Array<{ suggestion: string }> } }>(session, "POST", "/auto-suggest", {
        query: value
      }).then(
        (answer) => mine === typed.current && setSuggestions(answer.data.completions.map((c) => c.suggestion)),
        () => setSuggestions([])
      )
    }, 120)
  }

  const search = (value: string) => {
    typed.current++
    setText(value)
    setSuggestions([])
    setOffset(0)
    setChoices([])
    setQuery(value)
  }

  const toggle = (choice: Choice) => {
    setOffset(0)
    setChoices((current) => {
      const chosen = current.some((c) => c.column === choice.column && sameValue(c.value, choice.value))
      if (chosen) return current.filter((c) => !(c.column === choice.column && sameValue(c.value, choice.value)))
      // An interval stands alone in its column.
      const kept = choice.type === "interval" ? current.filter((c) => c.column !== choice.column) : current
      return [...kept, choice]
    })
  }

  // The page shown is the answer's: a click on Next counts once its page has arrived.
  const answer = shown?.answer ?? null
  const total = answer?.data.total ?? 0
  const pages = Math.max(1, Math.ceil(total / PAGE))
  const page = Math.floor((shown?.offset ?? 0) / PAGE) + 1
  const refinement = answer === null ? null : refinementOf(answer)
  const facets = answer?.data.interactions?.dynamicFilters ?? []

  return (
    <div class="search">
      <search>
        <form
          class="search-box"
          onSubmit={(e) => {
            e.preventDefault()
            search(text)
          }}
        >
          <input
            type="search"
            aria-label="Search"
            placeholder="Search the catalog"
            value={text}
            autocomplete="off"
            ref={box}
            onInput={(e) => suggest(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "ArrowDown" && suggestions.length > 0) {
                e.preventDefault()
                moveFocus(0)
              } else if (e.key === "Escape") setSuggestions([])
            }}
          />
          <button type="submit">Search</button>
          {campaigns.length > 0 && (
            <label>
              Campaign
              <select
                name="campaign"
                value={campaign === null ? "" : String(campaign)}
                onChange={(e) => {
                  setOffset(0)
                  setCampaign(e.currentTarget.value === "" ? null : Number(e.currentTarget.value))
                }}
              >
                <option value="">Default</option>
                {campaigns.map((c) => (
                  <option value={String(c.id)}>{c.name ? `${c.id} · ${c.name}` : String(c.id)}</option>
                ))}
              </select>
            </label>
          )}
          {suggestions.length > 0 && (
            <ul class="suggestions" aria-label="Suggestions" ref={list}>
              {suggestions.map((s, i) => (
                <li>
                  <button
                    type="button"
                    onClick={() => search(s)}
                    onKeyDown={(e) => {
                      // Arrows walk the completions; Escape (or up from the first) goes back to the box.
                      if (e.key === "ArrowDown") {
                        e.preventDefault()
                        moveFocus(Math.min(i + 1, suggestions.length - 1))
                      } else if (e.key === "ArrowUp") {
                        e.preventDefault()
                        if (i === 0) box.current?.focus()
                        else moveFocus(i - 1)
                      } else if (e.key === "Escape") {
                        setSuggestions([])
                        box.current?.focus()
                      }
                    }}
                  >
                    {s}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </form>
      </search>
      {error !== null && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {answer !== null && (
        <div class="listing">
          <aside aria-label="Filters">
            {facets.map((facet) => (
              <fieldset>
                <legend>{facet.label}</legend>
                {facet.values.map((value) => (
                  <label class={value.active ? "" : "inactive"}>
                    <input
                      type="checkbox"
                      checked={value.selected}
                      onChange={() =>
                        toggle({ column: facet.column, type: facet.type, value: value.value, label: value.label })
                      }
                    />
                    {value.label} <span class="count">({value.count})</span>
                  </label>
                ))}
              </fieldset>
            ))}
          </aside>
          <section aria-label="Listing">
            {(answer.data.userData ?? []).map((data) => (
              <p class="banner" role="status">
                {bannerText(data)}
              </p>
            ))}
            {answer.data.interactions?.redirect && (
              <p class="banner" role="status">
                A rule sends this query to{" "}
                <a href={answer.data.interactions.redirect.url}>{answer.data.interactions.redirect.url}</a>
              </p>
            )}
            <div class="bar">
              <span aria-live="polite">
                {total} {total === 1 ? "result" : "results"}
                {answer.data.appliedRules && answer.data.appliedRules.length > 0
                  ? ` · rules: ${answer.data.appliedRules.join(", ")}`
                  : ""}
                {(answer.data.explanation?.synonyms ?? []).map((s) => ` · ${s.words} → ${s.alternatives.join(", ")}`)}
              </span>
              {refinement !== null && (
                <button type="button" class="chip" onClick={() => toggle(refinement)}>
                  Narrow to {refinement.label}
                </button>
              )}
              <label>
                Sort
                <select
                  value={String(sortIndex)}
                  onChange={(e) => {
                    setOffset(0)
                    setSortIndex(Number(e.currentTarget.value))
                  }}
                >
                  {SORTS.map((s, i) => (
                    <option value={String(i)}>{s.label}</option>
                  ))}
                </select>
              </label>
            </div>
            <ul class="results" aria-label="Results">
              {answer.data.products.map((product) => (
                <ResultTile product={product} />
              ))}
            </ul>
            <nav aria-label="Pages" class="pages">
              <button type="button" disabled={page <= 1} onClick={() => setOffset((page - 2) * PAGE)}>
                Previous
              </button>
              <span>
                Page {page} of {pages}
              </span>
              <button type="button" disabled={page >= pages} onClick={() => setOffset(page * PAGE)}>
                Next
              </button>
            </nav>
          </section>
        </div>
      )}
    </div>
  )
}
