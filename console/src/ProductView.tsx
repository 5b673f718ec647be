import { useEffect, useState } from "preact/hooks"
import { call, type Product, type Session } from "./api.js"
import { ResultTile } from "./ResultTile.js"

interface Record_ {
  readonly data: {
    readonly "product-id": string
    readonly data: Readonly<Record<string, unknown>>
    readonly images: ReadonlyArray<{ readonly id: string; readonly url: string }>
    readonly updatedAt?: string
  }
}
interface Predicted {
  readonly attributes: ReadonlyArray<{ readonly name: string; readonly value: unknown; readonly prediction: unknown }>
  readonly images: ReadonlyArray<{
    readonly url: string
    readonly attributes: ReadonlyArray<{ readonly name: string; readonly prediction: unknown }>
  }>
}
type Listing = { readonly data: { readonly products: ReadonlyArray<Product> } }

const show = (value: unknown) =>
  value === null || value === undefined ? "—" : Array.isArray(value) ? value.join(", ") : String(value)

/** A product as the catalog holds it, with what the service makes of it. */
export const ProductView = ({ session, productId }: { readonly session: Session; readonly productId: string }) => {
  const [record, setRecord] = useState<Record_["data"] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [similar, setSimilar] = useState<ReadonlyArray<Product>>([])
  const [together, setTogether] = useState<ReadonlyArray<Product>>([])
  const [predicted, setPredicted] = useState<Predicted | null>(null)

  useEffect(() => {
    setRecord(null)
    setPredicted(null)
    call<Record_>(session, "GET", `/product/${encodeURIComponent(productId)}`).then(
      (answer) => setRecord(answer.data),
      (e: Error) => setError(e.message)
    )
    call<Listing>(session, "POST", "/similar-products", { productId, resultsCount: 6 }).then(
      (answer) => setSimilar(answer.data.products),
      () => setSimilar([])
    )
    call<Listing>(session, "POST", "/cross-selling", { productId, resultsCount: 6 }).then(
      (answer) => setTogether(answer.data.products),
      () => setTogether([])
    )
    // Predictions need site credentials: a read-only session does not ask.
    if (session.scope === "site")
      call<Predicted>(session, "POST", `/product/${encodeURIComponent(productId)}/predicted-attributes`).then(
        setPredicted,
        () => setPredicted(null)
      )
  }, [session, productId])

  if (error !== null)
    return (
      <p role="alert" class="error">
        {error}
      </p>
    )
  if (record === null) return <p aria-live="polite">Loading {productId}…</p>
  const data = record.data
  return (
    <article class="product" aria-label={`Product ${productId}`}>
      <p>
        <a href="#/search">← Back to search</a>
      </p>
      <h2>{show(data.title)}</h2>
      <div class="product-head">
        <div class="gallery">
          {record.images.map((image) => {
            const analysis = predicted?.images.find((i) => i.url === image.url)
            return (
              <figure>
                <img src={image.url} alt={show(data.title)} />
                {analysis && (
                  <figcaption>
                    {analysis.attributes.map((a) => (
                      <span>
                        {a.name}: {show(a.prediction)}{" "}
                      </span>
                    ))}
                  </figcaption>
                )}
              </figure>
            )
          })}
        </div>
        <table aria-label="Record">
          <tbody>
            {Object.entries(data).map(([key, value]) => (
              <tr>
                <th scope="row">{key}</th>
                <td>{typeof value === "object" && value !== null ? JSON.stringify(value) : show(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {predicted && (
        <section aria-label="Predicted attributes">
          <h3>Predicted attributes</h3>
          <table>
            <thead>
              <tr>
                <th scope="col">Attribute</th>
                <th scope="col">Catalog</th>
                <th scope="col">Predicted</th>
              </tr>
            </thead>
            <tbody>
              {predicted.attributes.map((a) => (
                <tr>
                  <th scope="row">{a.name}</th>
                  <td>{show(a.value)}</td>
                  <td>{show(a.prediction)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <section aria-label="Similar products">
        <h3>Similar products</h3>
        <ul class="results" aria-label="Similar">
          {similar.map((p) => (
            <ResultTile product={p} />
          ))}
        </ul>
      </section>
      <section aria-label="Bought together">
        <h3>Bought together</h3>
        {together.length === 0 ? (
          <p>No complements yet.</p>
        ) : (
          <ul class="results" aria-label="Complements">
            {together.map((p) => (
              <ResultTile product={p} />
            ))}
          </ul>
        )}
      </section>
    </article>
  )
}
