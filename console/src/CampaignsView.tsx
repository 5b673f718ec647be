import { useEffect, useState } from "preact/hooks"
import { EntryTable, type Outcome, OutcomeMessage } from "./Parts.js"
import { call, type Session } from "./api.js"

interface Campaign {
  readonly id: number
  readonly name?: string
  readonly resultsCount: number
  readonly [field: string]: unknown
}

const TEMPLATE = JSON.stringify(
  { name: "summer sale", resultsCount: 24, boosts: [{ column: "brand", values: ["Acme"], weight: 0.3 }] },
  null,
  2
)

/**
 * The site's campaigns (GET /campaigns), each edited as the JSON the API takes: the API checks it
 * whole and its message names the field at fault.
 */
export const CampaignsView = ({ session }: { readonly session: Session }) => {
  const [list, setList] = useState<ReadonlyArray<Campaign>>([])
  const [defaultCampaign, setDefault] = useState<number | null>(null)
  const [version, setVersion] = useState(0)
  const [id, setId] = useState("")
  const [json, setJson] = useState(TEMPLATE)
  const [message, setMessage] = useState<Outcome | null>(null)

  useEffect(() => {
    call<{ items: Array<Campaign>; defaultCampaign: number }>(session, "GET", "/campaigns").then(
      (answer) => {
        setList(answer.items)
        setDefault(answer.defaultCampaign)
      },
      (e: Error) => setMessage({ text: e.message, error: true })
    )
  }, [session, version])

  const edit = (campaign: Campaign) => {
    const { id: campaignId, updatedAt: _, ...body } = campaign
    setId(String(campaignId))
    setJson(JSON.stringify(body, null, 2))
    setMessage(null)
  }

  const save = async (event: Event) => {
    event.preventDefault()
    let body: unknown
    try {
      body = JSON.parse(json)
    } catch (e) {
      return setMessage({ text: `Not JSON: ${(e as Error).message}`, error: true })
    }
    try {
      await call(session, "PUT", `/campaigns/${encodeURIComponent(id.trim())}`, body)
      setMessage({ text: `Saved campaign ${id.trim()}.`, error: false })
      setVersion(version + 1)
    } catch (e) {
      setMessage({ text: (e as Error).message, error: true })
    }
  }

  const remove = async (campaign: Campaign) => {
    try {
      await call(session, "DELETE", `/campaigns/${campaign.id}`)
      setVersion(version + 1)
    } catch (e) {
      setMessage({ text: (e as Error).message, error: true })
    }
  }

  return (
    <div class="merchant">
      <h2>Campaigns</h2>
      <EntryTable label="Campaigns" columns={["Id", "Name", "Results", "Actions"]}>
        {list.map((campaign) => (
          <tr>
            <td>
              {campaign.id}
              {campaign.id === defaultCampaign ? " (default)" : ""}
            </td>
            <td>{campaign.name ?? ""}</td>
            <td>{campaign.resultsCount}</td>
            <td>
              <button type="button" aria-label={`Edit campaign ${campaign.id}`} onClick={() => edit(campaign)}>
                Edit
              </button>{" "}
              {campaign.id !== defaultCampaign && (
                <button type="button" aria-label={`Delete campaign ${campaign.id}`} onClick={() => remove(campaign)}>
                  Delete
                </button>
              )}
            </td>
          </tr>
        ))}
      </EntryTable>
      <form onSubmit={save} aria-label="Campaign" class="campaign-form">
        <label>
          Campaign id
          <input required inputMode="numeric" value={id} onInput={(e) => setId(e.currentTarget.value)} />
        </label>
        <label>
          Campaign JSON
          <textarea rows={12} value={json} onInput={(e) => setJson(e.currentTarget.value)} spellcheck={false} />
        </label>
        <button type="submit">Save campaign</button>
      </form>
      <OutcomeMessage outcome={message} />
    </div>
  )
}
