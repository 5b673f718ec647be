import { useState } from "preact/hooks"
import type { Product } from "./api.js"

const money = (n: number | null | undefined) => (n === null || n === undefined ? "" : n.toFixed(2))

/** One result as a shopper sees it, with "why here" for the merchant. */
export const ResultTile = ({ product }: { readonly product: Product }) => {
  const [why, setWhy] = useState(false)
  // A shop's image host may fail (see the catalog's health): the tile keeps its placeholder.
  const [broken, setBroken] = useState(false)
  const image = product.images?.[0]?.thumbnail ?? product.images?.[0]?.original
  const price = product.price
  const onSale = price?.sale !== null && price?.sale !== undefined && price.actual !== null && price.sale < price.actual
  const e = product.explanation
  const whyId = `why-${product.productId}`
  return (
    <li class="tile">
      <div class="thumb">
        {image && !broken ? (
          <img src={image} alt="" loading="lazy" onError={() => setBroken(true)} />
        ) : (
          <span aria-hidden="true">□</span>
        )}
      </div>
      {/* The server escapes the title and marks the matched words itself. */}
      <h3>
        <a
          href={`#/product/${encodeURIComponent(product.productId)}`}
          dangerouslySetInnerHTML={{ __html: product.highlight?.title ?? escapeHtml(product.title) }}
        />
      </h3>
      {product.brand && <p class="brand">{product.brand}</p>}
      {price && (
        <p class="price">
          {onSale ? (
            <>
              <del>{money(price.actual)}</del> <strong>{money(price.sale)}</strong>
            </>
          ) : (
            money(price.actual)
          )}
        </p>
      )}
      {product.availability && <p class="availability">{product.availability.replaceAll("_", " ")}</p>}
      {product.variants && product.variants.colors.length > 0 && (
        <p class="swatches">
          <span class="visually-hidden">
            {product.variants.count} variants: {product.variants.colors.join(", ")}
          </span>
          {product.variants.colors.map((color) => (
            <span class="swatch" aria-hidden="true" style={{ background: color }} title={color} />
          ))}
        </p>
      )}
      {e && (
        <>
          <button type="button" class="why" aria-expanded={why} aria-controls={whyId} onClick={() => setWhy(!why)}>
            Why here
          </button>
          {why && (
            <dl id={whyId} class="explanation">
              {e.promoted && (
                <>
                  <dt>Promoted</dt>
                  <dd>
                    by {e.promoted.by} to position {e.promoted.position + 1}
                  </dd>
                </>
              )}
              <dt>Score</dt>
              <dd>{e.score.toFixed(3)}</dd>
              <dt>Lexical</dt>
              <dd>{e.lexical.toFixed(3)}</dd>
              <dt>Semantic</dt>
              <dd>{e.semantic.toFixed(3)}</dd>
              <dt>Popularity</dt>
              <dd>{e.popularity.toFixed(3)}</dd>
              <dt>Boosts</dt>
              <dd>{e.boosts.toFixed(3)}</dd>
            </dl>
          )}
        </>
      )}
    </li>
  )
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)
