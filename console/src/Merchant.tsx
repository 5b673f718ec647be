import { useEffect, useState } from "preact/hooks"
import { EntryTable, type Outcome, OutcomeMessage } from "./Parts.js"
import { call, type SearchAnswer, type Session } from "./api.js"

const words = (text: string) =>
  text
    .split(",")
    .map((w) => w.trim())
    .filter((w) => w !== "")

/** The first products a query lists now: the merchant sees a change take effect. */
const Preview = ({ session, query, version }: { session: Session; query: string; version: number }) => {
  const [answer, setAnswer] = useState<SearchAnswer | null>(null)
  useEffect(() => {
    if (query.trim() === "") return setAnswer(null)
    let live = true
    // Asked once typing pauses; a preview is no shopper's search, so analytics leave it out.
    const timer = setTimeout(
      () =>
        call<SearchAnswer>(session, "POST", "/text-search", { query, resultsCount: 5, analytics: false }).then(
          (next) => live && setAnswer(next),
          () => live && setAnswer(null)
        ),
      200
    )
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [session, query, version])
  return (
    <section aria-label="Preview" class="preview">
      <h3>Preview: “{query}”</h3>
      {answer === null ? (
        <p>Type a query to see what it lists.</p>
      ) : (
        <>
          <p aria-live="polite">
            {answer.data.total ?? 0} results
            {answer.data.appliedRules ? ` · rules: ${answer.data.appliedRules.join(", ")}` : ""}
          </p>
          <ol aria-label="Preview results">
            {answer.data.products.map((p) => (
              <li>
                {p.title} <small>({p.productId})</small>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  )
}

interface SynonymRecord {
  readonly id: string
  readonly type: "synonym" | "oneWaySynonym" | "altCorrection"
  readonly synonyms?: ReadonlyArray<string>
  readonly input?: string
  readonly word?: string
  readonly corrections?: ReadonlyArray<string>
}

const describeSynonym = (s: SynonymRecord) =>
  s.type === "synonym"
    ? (s.synonyms ?? []).join(" = ")
    : s.type === "oneWaySynonym"
      ? `${s.input} → ${(s.synonyms ?? []).join(", ")}`
      : `${s.word} ≈ ${(s.corrections ?? []).join(", ")}`

/** The site's synonyms: listed, created and deleted through /synonyms, with a live preview. */
export const SynonymsView = ({ session }: { readonly session: Session }) => {
  const [list, setList] = useState<ReadonlyArray<SynonymRecord>>([])
  const [version, setVersion] = useState(0)
  const [id, setId] = useState("")
  const [type, setType] = useState<SynonymRecord["type"]>("synonym")
  const [from, setFrom] = useState("")
  const [to, setTo] = useState("")
  const [message, setMessage] = useState<Outcome | null>(null)
  const [preview, setPreview] = useState("")

  useEffect(() => {
    call<{ items: Array<SynonymRecord> }>(session, "GET", "/synonyms?pageSize=1000").then(
      (answer) => setList(answer.items),
      (e: Error) => setMessage({ text: e.message, error: true })
    )
  }, [session, version])

  const save = async (event: Event) => {
    event.preventDefault()
    const body =
      type === "synonym"
        ? { type, synonyms: words(to) }
        : type === "oneWaySynonym"
          ? { type, input: from.trim(), synonyms: words(to) }
          : { type, word: from.trim(), corrections: words(to) }
    try {
      await call(session, "PUT", `/synonyms/${encodeURIComponent(id.trim())}`, body)
      setMessage({ text: `Saved synonym ${id.trim()}.`, error: false })
      setPreview(type === "synonym" ? (words(to)[0] ?? "") : from.trim())
      setVersion(version + 1)
    } catch (e) {
      setMessage({ text: (e as Error).message, error: true })
    }
  }

  /** Loads an entry into the form: saving it again replaces it (its id). */
  const load = (entry: SynonymRecord) => {
    setId(entry.id)
    setType(entry.type)
    setFrom(entry.input ?? entry.word ?? "")
    setTo((entry.type === "altCorrection" ? entry.corrections : entry.synonyms)?.join(", ") ?? "")
    setMessage(null)
  }

  const remove = async (entry: SynonymRecord) => {
    await call(session, "DELETE", `/synonyms/${encodeURIComponent(entry.id)}`).catch((e: Error) =>
      setMessage({ text: e.message, error: true })
    )
    setVersion(version + 1)
  }

  return (
    <div class="merchant">
      <h2>Synonyms</h2>
      <form onSubmit={save} aria-label="Synonym">
        <label>
          Id
          <input required value={id} onInput={(e) => setId(e.currentTarget.value)} />
        </label>
        <label>
          Type
          <select value={type} onChange={(e) => setType(e.currentTarget.value as SynonymRecord["type"])}>
            <option value="synonym">Two-way: each finds the others</option>
            <option value="oneWaySynonym">One-way: the input also finds the synonyms</option>
            <option value="altCorrection">Alternative correction</option>
          </select>
        </label>
        {type !== "synonym" && (
          <label>
            {type === "oneWaySynonym" ? "Input" : "Word"}
            <input required value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
          </label>
        )}
        <label>
          {type === "altCorrection" ? "Corrections (comma-separated)" : "Synonyms (comma-separated)"}
          <input required value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </label>
        <button type="submit">Save synonym</button>
      </form>
      <OutcomeMessage outcome={message} />
      <EntryTable label="Synonyms" columns={["Id", "Type", "Words", "Actions"]}>
        {list.map((entry) => (
          <tr>
            <td>{entry.id}</td>
            <td>{entry.type}</td>
            <td>{describeSynonym(entry)}</td>
            <td>
              <button type="button" aria-label={`Edit synonym ${entry.id}`} onClick={() => load(entry)}>
                Edit
              </button>{" "}
              <button type="button" aria-label={`Delete synonym ${entry.id}`} onClick={() => remove(entry)}>
                Delete
              </button>
            </td>
          </tr>
        ))}
      </EntryTable>
      <label>
        Preview query
        <input value={preview} onInput={(e) => setPreview(e.currentTarget.value)} />
      </label>
      <Preview session={session} query={preview} version={version} />
    </div>
  )
}

interface RuleRecord {
  readonly id: string
  readonly description?: string
  readonly enabled?: boolean
  readonly conditions?: ReadonlyArray<{ readonly pattern?: string; readonly anchoring?: string }>
  readonly consequence: {
    readonly promote?: ReadonlyArray<{ readonly productId: string; readonly position: number }>
    readonly hide?: ReadonlyArray<{ readonly productId: string }>
    readonly userData?: Record<string, unknown>
    readonly redirect?: { readonly url: string }
  }
}

const describeRule = (rule: RuleRecord) => {
  const when = (rule.conditions ?? []).map((c) => `${c.anchoring ?? ""} “${c.pattern ?? ""}”`).join(" or ") || "always"
  const c = rule.consequence
  const then = [
    ...(c.promote ?? []).map((p) => `promote ${p.productId} to ${p.position + 1}`),
    ...(c.hide ?? []).map((h) => `hide ${h.productId}`),
    ...(c.redirect ? [`redirect to ${c.redirect.url}`] : []),
    ...(c.userData ? [`data ${JSON.stringify(c.userData)}`] : [])
  ]
  return `${when}: ${then.join("; ") || "other consequences"}`
}

/** The site's query rules: listed, created, enabled or disabled and deleted through /rules. */
export const RulesView = ({ session }: { readonly session: Session }) => {
  const [list, setList] = useState<ReadonlyArray<RuleRecord>>([])
  const [version, setVersion] = useState(0)
  const [id, setId] = useState("")
  const [pattern, setPattern] = useState("")
  const [anchoring, setAnchoring] = useState("contains")
  const [promote, setPromote] = useState("")
  const [position, setPosition] = useState("1")
  const [hide, setHide] = useState("")
  const [banner, setBanner] = useState("")
  const [message, setMessage] = useState<Outcome | null>(null)

  useEffect(() => {
    call<{ items: Array<RuleRecord> }>(session, "GET", "/rules?pageSize=1000").then(
      (answer) => setList(answer.items),
      (e: Error) => setMessage({ text: e.message, error: true })
    )
  }, [session, version])

  const write = async (ruleId: string, body: unknown) => {
    try {
      await call(session, "PUT", `/rules/${encodeURIComponent(ruleId)}`, body)
      setMessage({ text: `Saved rule ${ruleId}.`, error: false })
      setVersion(version + 1)
    } catch (e) {
      setMessage({ text: (e as Error).message, error: true })
    }
  }

  const save = (event: Event) => {
    event.preventDefault()
    const consequence = {
      ...(promote.trim() ? { promote: [{ productId: promote.trim(), position: Number(position) - 1 }] } : {}),
      ...(hide.trim() ? { hide: [{ productId: hide.trim() }] } : {}),
      ...(banner.trim() ? { userData: { banner: banner.trim() } } : {})
    }
    return write(id.trim(), { conditions: [{ pattern, anchoring }], consequence, enabled: true })
  }

  const toggle = (rule: RuleRecord) => {
    const { id: ruleId, ...body } = rule as RuleRecord & { updatedAt?: string }
    delete (body as { updatedAt?: string }).updatedAt
    return write(ruleId, { ...body, enabled: rule.enabled === false })
  }

  /** Loads a rule into the form (its first condition and consequences the form has): saving replaces it. */
  const load = (rule: RuleRecord) => {
    const condition = rule.conditions?.[0]
    setId(rule.id)
    setPattern(condition?.pattern ?? "")
    setAnchoring(condition?.anchoring ?? "contains")
    setPromote(rule.consequence.promote?.[0]?.productId ?? "")
    setPosition(String((rule.consequence.promote?.[0]?.position ?? 0) + 1))
    setHide(rule.consequence.hide?.[0]?.productId ?? "")
    const banner = rule.consequence.userData?.banner
    setBanner(typeof banner === "string" ? banner : "")
    setMessage(null)
  }

  const remove = async (rule: RuleRecord) => {
    await call(session, "DELETE", `/rules/${encodeURIComponent(rule.id)}`).catch((e: Error) =>
      setMessage({ text: e.message, error: true })
    )
    setVersion(version + 1)
  }

  return (
    <div class="merchant">
      <h2>Rules</h2>
      <form onSubmit={save} aria-label="Rule">
        <label>
          Id
          <input required value={id} onInput={(e) => setId(e.currentTarget.value)} />
        </label>
        <label>
          Query pattern
          <input value={pattern} onInput={(e) => setPattern(e.currentTarget.value)} />
        </label>
        <label>
          Anchoring
          <select value={anchoring} onChange={(e) => setAnchoring(e.currentTarget.value)}>
            <option value="contains">contains</option>
            <option value="is">is</option>
            <option value="startsWith">starts with</option>
            <option value="endsWith">ends with</option>
          </select>
        </label>
        <label>
          Promote product id
          <input value={promote} onInput={(e) => setPromote(e.currentTarget.value)} />
        </label>
        <label>
          To position
          <input
            type="number"
            min="1"
            max="1000"
            value={position}
            onInput={(e) => setPosition(e.currentTarget.value)}
          />
        </label>
        <label>
          Hide product id
          <input value={hide} onInput={(e) => setHide(e.currentTarget.value)} />
        </label>
        <label>
          Banner
          <input value={banner} onInput={(e) => setBanner(e.currentTarget.value)} />
        </label>
        <button type="submit">Save rule</button>
      </form>
      <OutcomeMessage outcome={message} />
      <EntryTable label="Rules" columns={["Id", "Rule", "Enabled", "Actions"]}>
        {list.map((rule) => (
          <tr>
            <td>{rule.id}</td>
            <td>{rule.description ?? describeRule(rule)}</td>
            <td>
              <input
                type="checkbox"
                aria-label={`Rule ${rule.id} enabled`}
                checked={rule.enabled !== false}
                onChange={() => toggle(rule)}
              />
            </td>
            <td>
              <button type="button" aria-label={`Edit rule ${rule.id}`} onClick={() => load(rule)}>
                Edit
              </button>{" "}
              <button type="button" aria-label={`Delete rule ${rule.id}`} onClick={() => remove(rule)}>
                Delete
              </button>
            </td>
          </tr>
        ))}
      </EntryTable>
      <Preview session={session} query={pattern} version={version} />
    </div>
  )
}
