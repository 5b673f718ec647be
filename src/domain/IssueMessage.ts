import { ParseResult } from "effect"

/**
 * Schema type errors in the words of the wire format. Effect describes a type mismatch by the
 * schema's TypeScript shape ("Expected ReadonlyArray<{ readonly url: { string | filter } }>,
 * actual \"nope\""), which a REST or MCP client cannot act on; this says what kind of JSON value
 * the field takes ("must be an array, not \"nope\""). Messages of other rules pass unchanged.
 */
export const plainIssueMessage = (message: string): string => {
  const match = /^Expected ([\s\S]+), actual ([\s\S]+)$/.exec(message)
  if (match === null) return message
  const kind = jsonKind(match[1].replace(/ \| undefined$/, "").trim())
  return kind === undefined ? message : `must be ${kind}, not ${shorten(match[2])}`
}

const LITERAL = /^(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)$/

/** The JSON kind an Effect type description stands for, when it is one of the plain ones. */
const jsonKind = (expected: string): string | undefined => {
  if (/^(?:ReadonlyArray|Array)<|^readonly \[|^\[/.test(expected)) return "an array"
  if (/^\{ readonly |^\{ \[x: string\]|^\{\s*\}$|^Struct|^Record</.test(expected)) return "an object"
  if (/^(?:string|NonEmptyString|Trimmed|\{ string \| filter \}|minLength\(|maxLength\(|pattern\()/.test(expected))
    return "a string"
  if (
    /^(?:number|Int|int|Finite|NonNegative|Positive|NonNegativeInt|PositiveInt|between\(|greaterThan|lessThan|\{ number \| filter \})/.test(
      expected
    )
  )
    return "a number"
  if (expected === "boolean") return "true or false"
  const alternatives = expected.split(" | ")
  if (alternatives.every((a) => LITERAL.test(a))) {
    return alternatives.length === 1
      ? alternatives[0]
      : `one of ${alternatives.slice(0, 12).join(", ")}${alternatives.length > 12 ? ", …" : ""}`
  }
  return undefined
}

const shorten = (actual: string): string => (actual.length <= 60 ? actual : `${actual.slice(0, 57)}...`)

/** One broken rule: where (the field path) and what. */
export interface Issue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/** "data.brand: must be at most 70 characters; images: …": each field path, then the rule it broke. */
export const describeIssues = (issues: ReadonlyArray<Issue>, root?: string): string =>
  issues
    .map((i) =>
      i.path.length > 0
        ? `${i.path.map(String).join(".")}: ${i.message}`
        : root === undefined
          ? i.message
          : `${root}: ${i.message}`
    )
    .join("; ")

/** A decode failure as REST and MCP clients read it: every issue, in plain words; `root` names a whole-value issue. */
export const describeParseError = (error: ParseResult.ParseError, root?: string): string =>
  describeIssues(
    ParseResult.ArrayFormatter.formatErrorSync(error).map((i) => ({
      path: i.path,
      message: plainIssueMessage(i.message)
    })),
    root
  )
