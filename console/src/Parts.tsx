import type { ComponentChildren } from "preact"

/** The outcome of a merchant's action: the API's own message when it refused (it names the field). */
export interface Outcome {
  readonly text: string
  readonly error: boolean
}

export const OutcomeMessage = ({ outcome }: { readonly outcome: Outcome | null }) =>
  outcome === null ? null : (
    <p role={outcome.error ? "alert" : "status"} class={outcome.error ? "error" : "ok"}>
      {outcome.text}
    </p>
  )

/** A merchant view's table: its columns' headings, then its rows. */
export const EntryTable = ({
  label,
  columns,
  children
}: {
  readonly label: string
  readonly columns: ReadonlyArray<string>
  readonly children: ComponentChildren
}) => (
  <table aria-label={label}>
    <thead>
      <tr>
        {columns.map((column) => (
          <th scope="col">{column}</th>
        ))}
      </tr>
    </thead>
    <tbody>{children}</tbody>
  </table>
)
