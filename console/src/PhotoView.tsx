import { useRef, useState } from "preact/hooks"
import { call, type SearchAnswer, type Session } from "./api.js"
import { ResultTile } from "./ResultTile.js"

interface Area {
  readonly left: number
  readonly top: number
  readonly width: number
  readonly height: number
}
type VisualAnswer = SearchAnswer & {
  readonly interactions?: { readonly suggestedSearchAreas?: ReadonlyArray<{ readonly rectangle: Area }> }
}

const clamp = (n: number) => Math.min(1, Math.max(0, n))
const percent = (n: number) => `${(n * 100).toFixed(2)}%`

/**
 * Search by photo: a photo dropped, pasted or chosen; a search area drawn on it, or a detected
 * object's box clicked. Later searches on the same photo name its requestId, so it is sent once.
 */
export const PhotoView = ({ session }: { readonly session: Session }) => {
  const [photo, setPhoto] = useState<string | null>(null)
  const [requestId, setRequestId] = useState<string>("")
  const [answer, setAnswer] = useState<VisualAnswer | null>(null)
  const [area, setArea] = useState<Area | null>(null)
  const [drawing, setDrawing] = useState<{ x: number; y: number } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const frame = useRef<HTMLDivElement>(null)

  const search = async (query: Record<string, unknown>, id: string) => {
    try {
      const next = await call<VisualAnswer>(session, "POST", "/visual-search", {
        requestId: id,
        query,
        resultsCount: 12,
        objectDetection: { include: true }
      })
      setAnswer(next)
      setError(null)
    } catch (e) {
      setError((e as Error).message)
    }
  }

  const load = (file: File | null | undefined) => {
    if (!file) return
    const reader = new FileReader()
    reader.onload = () => {
      const dataUrl = String(reader.result)
      const id = `console-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
      setPhoto(dataUrl)
      setRequestId(id)
      setArea(null)
      search({ image: dataUrl }, id)
    }
    reader.readAsDataURL(file)
  }

  const point = (event: PointerEvent) => {
    const box = frame.current!.getBoundingClientRect()
    return { x: clamp((event.clientX - box.left) / box.width), y: clamp((event.clientY - box.top) / box.height) }
  }
  const drawn = (from: { x: number; y: number }, to: { x: number; y: number }): Area => ({
    left: Math.min(from.x, to.x),
    top: Math.min(from.y, to.y),
    width: Math.abs(to.x - from.x),
    height: Math.abs(to.y - from.y)
  })
  const searchArea = (next: Area) => {
    setArea(next)
    search({ searchArea: next }, requestId)
  }

  const areas = answer?.interactions?.suggestedSearchAreas ?? []
  return (
    <section
      class="photo"
      aria-label="Search by photo"
      onPaste={(e) => load([...(e.clipboardData?.files ?? [])][0])}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault()
        load(e.dataTransfer?.files[0])
      }}
    >
      <h2>Search by photo</h2>
      <label>
        Photo
        <input type="file" accept="image/*" onChange={(e) => load(e.currentTarget.files?.[0])} />
      </label>
      <p>Or drop or paste a photo here. Drag on the photo to search a part of it, or pick a detected object.</p>
      {error !== null && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {photo !== null && (
        <div
          class="frame"
          ref={frame}
          aria-label="Photo: drag to draw the search area"
          role="img"
          onPointerDown={(e) => {
            if ((e.target as HTMLElement).tagName === "BUTTON") return
            e.preventDefault()
            setDrawing(point(e))
          }}
          onPointerUp={(e) => {
            if (drawing === null) return
            const next = drawn(drawing, point(e))
            setDrawing(null)
            if (next.width > 0.02 && next.height > 0.02) searchArea(next)
          }}
        >
          <img src={photo} alt="" draggable={false} />
          {areas.map((a, i) => (
            <button
              type="button"
              class="detected"
              aria-label={`Detected object ${i + 1}`}
              style={{
                left: percent(a.rectangle.left),
                top: percent(a.rectangle.top),
                width: percent(a.rectangle.width),
                height: percent(a.rectangle.height)
              }}
              onClick={() => searchArea(a.rectangle)}
            />
          ))}
          {area !== null && (
            <span
              class="area"
              style={{
                left: percent(area.left),
                top: percent(area.top),
                width: percent(area.width),
                height: percent(area.height)
              }}
            />
          )}
        </div>
      )}
      {answer !== null && (
        <>
          <p aria-live="polite">
            {answer.data.products.length} results{area !== null ? " in the area" : ""}
          </p>
          <ul class="results" aria-label="Results">
            {answer.data.products.map((p) => (
              <ResultTile product={p} />
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
