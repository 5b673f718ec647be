import { useEffect, useState } from "preact/hooks"
import { call, type Session } from "./api.js"
import { EntryTable } from "./Parts.js"

interface Health {
  readonly products: number
  readonly lastProductWrite: string | null
  readonly pendingJobs: number
  readonly failedImages: {
    readonly products: number
    readonly images: ReadonlyArray<{ readonly productId: string; readonly url: string; readonly reason: string }>
  }
}

/** The catalog's health (GET /catalog/health): products, the backlog, images that failed and why. */
export const HealthView = ({ session }: { readonly session: Session }) => {
  const [health, setHealth] = useState<Health | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    call<Health>(session, "GET", "/catalog/health").then(setHealth, (e: Error) => setError(e.message))
  }, [session, version])
  if (error !== null)
    return (
      <p role="alert" class="error">
        {error}
      </p>
    )
  if (health === null) return <p aria-live="polite">Loading the catalog's health…</p>
  return (
    <div class="merchant">
      <h2>Catalog health</h2>
      <dl class="totals">
        <div>
          <dt>Products</dt>
          <dd>{health.products}</dd>
        </div>
        <div>
          <dt>Last product change</dt>
          <dd class="small">
            {health.lastProductWrite === null ? "never" : new Date(health.lastProductWrite).toLocaleString()}
          </dd>
        </div>
        <div>
          <dt>Jobs pending</dt>
          <dd>{health.pendingJobs}</dd>
        </div>
        <div>
          <dt>Products with failed images</dt>
          <dd>{health.failedImages.products}</dd>
        </div>
      </dl>
      <button type="button" onClick={() => setVersion(version + 1)}>
        Refresh
      </button>
      {health.failedImages.images.length > 0 && (
        <EntryTable label="Failed images" columns={["Product", "Image", "Reason"]}>
          {health.failedImages.images.map((image) => (
            <tr>
              <td>
                <a href={`#/product/${encodeURIComponent(image.productId)}`}>{image.productId}</a>
              </td>
              <td class="url">{image.url}</td>
              <td>{image.reason}</td>
            </tr>
          ))}
        </EntryTable>
      )}
    </div>
  )
}
