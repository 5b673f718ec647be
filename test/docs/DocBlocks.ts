/**
 * The shell examples of the README and docs/, as the docs test runs them.
 *
 * Conventions (the README's tour and docs/api.md explain them to readers):
 * - A ```sh block runs, in the order written, in one bash session shared by every block
 *   (variables and the working directory carry over, as in a reader's terminal).
 * - `# → <answer>` after a command documents what the commands since the previous answer print:
 *   for curl, the HTTP status of the last call, then the body. Lines that follow it starting
 *   with `#` and three spaces continue it. `# →` may also end a command's own line.
 * - An answer that reads as JSON is compared as JSON (member order aside): every member shown
 *   must be there with that value; `...` or `…` in place of a member allows others, in place of
 *   array elements (or of whole answers in a sequence) stands for any number of them, as a
 *   member's value for any value, and inside a string for any characters. Any other answer is
 *   compared as text, with whitespace runs folded and `...`/`…` matching anything.
 * - `<!-- not run: <reason> -->` on the line before a block keeps the test from running it.
 */

export interface Segment {
  /** The commands, as written. */
  readonly commands: string
  /** The documented answer, or undefined when the commands' output is not documented. */
  readonly expected: string | undefined
  /** Line of the answer (or of the last command) in the markdown file, 1-based. */
  readonly line: number
}

export interface ShellBlock {
  readonly file: string
  /** Line of the opening fence, 1-based. */
  readonly line: number
  readonly source: string
  /** Why the block is not run; undefined when it runs. */
  readonly notRun: string | undefined
  readonly segments: ReadonlyArray<Segment>
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)\s*$/
const NOT_RUN = /^\s*<!--\s*not run:\s*(.*?)\s*-->\s*$/
const SHELL_LANGUAGES = new Set(["sh"])
const OTHER_SHELL_NAMES = new Set(["bash", "shell", "console", "zsh", "shell-session"])
const ANSWER_LINE = /^\s*# → ?(.*)$/
const INLINE_ANSWER = /\s# → ?(.*)$/
const CONTINUATION = /^\s*# {3}(.*)$/

/** Splits a block's lines into commands and the answers documented after them. */
export const segmentsOf = (lines: ReadonlyArray<string>, firstLine: number): Array<Segment> => {
  const segments: Array<Segment> = []
  let commands: Array<string> = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    const own = ANSWER_LINE.exec(line)
    const inline = own ? null : INLINE_ANSWER.exec(line)
    if (!own && !inline) {
      commands.push(line)
      i++
      continue
    }
    if (inline) commands.push(line.slice(0, inline.index))
    const answer = [(own ?? inline)![1]]
    const at = firstLine + i
    i++
    for (; i < lines.length && CONTINUATION.test(lines[i]); i++) answer.push(CONTINUATION.exec(lines[i])![1])
    segments.push({ commands: commands.join("\n"), expected: answer.join("\n"), line: at })
    commands = []
  }
  if (commands.some((c) => c.trim() !== "" && !c.trim().startsWith("#")))
    segments.push({ commands: commands.join("\n"), expected: undefined, line: firstLine + lines.length - 1 })
  return segments
}

/**
 * Every shell block of a markdown file, in order. Problems that would let an example escape
 * the test (a shell block under another name, a command in an unlabelled block, a marker with
 * no reason) are returned as errors.
 */
export const shellBlocks = (
  file: string,
  markdown: string
): { readonly blocks: Array<ShellBlock>; readonly errors: Array<string> } => {
  const lines = markdown.split("\n")
  const blocks: Array<ShellBlock> = []
  const errors: Array<string> = []
  let i = 0
  while (i < lines.length) {
    const open = FENCE.exec(lines[i])
    if (!open) {
      i++
      continue
    }
    const fence = open[2]
    const language = open[3].toLowerCase()
    const start = i
    const body: Array<string> = []
    i++
    while (i < lines.length && !(lines[i].trim().startsWith(fence) && lines[i].trim().replace(/[`~]/g, "") === ""))
      body.push(lines[i++])
    i++
    const at = `${file}:${start + 1}`
    if (OTHER_SHELL_NAMES.has(language)) {
      errors.push(`${at}: a shell block must be labelled sh (the test runs those), not ${language}`)
      continue
    }
    if (language === "" && body.some((l) => /^\s*(curl|npm|npx|node|docker-compose|export)\s/.test(l))) {
      errors.push(`${at}: commands in a block without a language; label it sh (or mark it not run)`)
      continue
    }
    if (!SHELL_LANGUAGES.has(language)) continue
    let before = start - 1
    while (before >= 0 && lines[before].trim() === "") before--
    const marker = before >= 0 ? NOT_RUN.exec(lines[before]) : null
    if (marker && marker[1] === "") errors.push(`${at}: "not run" needs its reason`)
    blocks.push({
      file,
      line: start + 1,
      source: body.join("\n"),
      notRun: marker ? marker[1] || "(no reason)" : undefined,
      segments: segmentsOf(body, start + 2)
    })
  }
  return { blocks, errors }
}

// ---------------------------------------------------------------------------------------------
// Documented answers

type Pattern =
  | { readonly kind: "any" }
  | { readonly kind: "rest" }
  | { readonly kind: "literal"; readonly value: number | boolean | null }
  | { readonly kind: "string"; readonly text: string; readonly wildcard: RegExp | undefined }
  | { readonly kind: "array"; readonly items: ReadonlyArray<Pattern> }
  | {
      readonly kind: "object"
      readonly members: ReadonlyArray<readonly [string, Pattern]>
      readonly open: boolean
    }

class PatternSyntax extends Error {}

const ELLIPSIS = /^(\.\.\.|…)/
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** A regular expression for text in which `...` and `…` stand for anything. */
const wildcardRegExp = (text: string): RegExp =>
  new RegExp(
    `^${text
      .split(/\.\.\.|…/)
      .map(escapeRegExp)
      .join("[\\s\\S]*?")}$`
  )

/** JSON with ellipses: a recursive-descent reader of one documented answer. */
class PatternReader {
  private at = 0
  constructor(private readonly text: string) {}

  private fail(what: string): never {
    throw new PatternSyntax(`${what} at ${this.at}: ${JSON.stringify(this.text.slice(this.at, this.at + 20))}`)
  }
  private skip() {
    while (this.at < this.text.length && /\s/.test(this.text[this.at])) this.at++
  }
  private ellipsis(): boolean {
    this.skip()
    const match = ELLIPSIS.exec(this.text.slice(this.at))
    if (!match) return false
    this.at += match[0].length
    return true
  }
  private expect(char: string) {
    this.skip()
    if (this.text[this.at] !== char) this.fail(`expected ${char}`)
    this.at++
  }
  private peek(): string {
    this.skip()
    return this.text[this.at] ?? ""
  }

  get done(): boolean {
    this.skip()
    return this.at >= this.text.length
  }

  /** A whole answer: one or more values, `...` standing for any number of them. */
  sequence(): Array<Pattern> {
    const items: Array<Pattern> = []
    while (!this.done) {
      if (this.ellipsis()) items.push({ kind: "rest" })
      else items.push(this.value())
      if (this.peek() === ",") this.at++
    }
    return items
  }

  private string(): string {
    this.skip()
    const start = this.at
    if (this.text[this.at] !== '"') this.fail("expected a string")
    this.at++
    while (this.at < this.text.length && this.text[this.at] !== '"') this.at += this.text[this.at] === "\\" ? 2 : 1
    if (this.at >= this.text.length) this.fail("unterminated string")
    this.at++
    try {
      return JSON.parse(this.text.slice(start, this.at))
    } catch {
      return this.fail("bad string")
    }
  }

  value(): Pattern {
    if (this.ellipsis()) return { kind: "any" }
    const c = this.peek()
    if (c === "{") {
      this.at++
      const members: Array<readonly [string, Pattern]> = []
      let open = false
      while (this.peek() !== "}") {
        if (this.ellipsis()) open = true
        else {
          const key = this.string()
          this.expect(":")
          members.push([key, this.value()])
        }
        if (this.peek() === ",") this.at++
        else if (this.peek() !== "}") this.fail("expected , or }")
      }
      this.at++
      return { kind: "object", members, open }
    }
    if (c === "[") {
      this.at++
      const items: Array<Pattern> = []
      while (this.peek() !== "]") {
        items.push(this.ellipsis() ? { kind: "rest" } : this.value())
        if (this.peek() === ",") this.at++
        else if (this.peek() !== "]") this.fail("expected , or ]")
      }
      this.at++
      return { kind: "array", items }
    }
    if (c === '"') {
      const text = this.string()
      return { kind: "string", text, wildcard: /\.\.\.|…/.test(text) ? wildcardRegExp(text) : undefined }
    }
    const literal = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.at))
    if (!literal) return this.fail("expected a value")
    this.at += literal[0].length
    return { kind: "literal", value: JSON.parse(literal[0]) }
  }
}

/** Reads consecutive JSON values (NDJSON, or bodies of several calls printed one after another). */
export const jsonValues = (text: string): Array<unknown> | undefined => {
  const values: Array<unknown> = []
  let at = 0
  while (true) {
    while (at < text.length && /\s/.test(text[at])) at++
    if (at >= text.length) return values
    const start = at
    if (text[at] === "{" || text[at] === "[") {
      let depth = 0
      for (; at < text.length; at++) {
        const c = text[at]
        if (c === '"') {
          for (at++; at < text.length && text[at] !== '"'; at++) if (text[at] === "\\") at++
        } else if (c === "{" || c === "[") depth++
        else if (c === "}" || c === "]") {
          depth--
          if (depth === 0) break
        }
      }
      at++
    } else if (text[at] === '"') {
      for (at++; at < text.length && text[at] !== '"'; at++) if (text[at] === "\\") at++
      at++
    } else while (at < text.length && !/\s/.test(text[at])) at++
    try {
      values.push(JSON.parse(text.slice(start, at)))
    } catch {
      return undefined
    }
  }
}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 160 ? `${text.slice(0, 157)}...` : text
}

/** Why `actual` does not match `pattern` (the first difference, with its path), or undefined. */
const mismatch = (pattern: Pattern, actual: unknown, path: string): string | undefined => {
  switch (pattern.kind) {
    case "any":
    case "rest":
      return undefined
    case "literal":
      return actual === pattern.value ? undefined : `${path}: expected ${show(pattern.value)}, got ${show(actual)}`
    case "string":
      if (typeof actual !== "string") return `${path}: expected a string ${show(pattern.text)}, got ${show(actual)}`
      if (pattern.wildcard ? pattern.wildcard.test(actual) : actual === pattern.text) return undefined
      return `${path}: expected ${show(pattern.text)}, got ${show(actual)}`
    case "array":
      if (!Array.isArray(actual)) return `${path}: expected an array, got ${show(actual)}`
      return listMismatch(pattern.items, actual, path)
    case "object": {
      if (typeof actual !== "object" || actual === null || Array.isArray(actual))
        return `${path}: expected an object, got ${show(actual)}`
      const record = actual as Record<string, unknown>
      for (const [key, value] of pattern.members) {
        if (!(key in record)) return `${path}.${key}: missing (the answer has ${Object.keys(record).join(", ")})`
        const problem = mismatch(value, record[key], `${path}.${key}`)
        if (problem) return problem
      }
      if (!pattern.open) {
        const shown = new Set(pattern.members.map(([key]) => key))
        const extra = Object.keys(record).filter((key) => !shown.has(key))
        if (extra.length > 0) return `${path}: members not documented (add them or …): ${extra.join(", ")}`
      }
      return undefined
    }
  }
}

/** Elements against patterns in which `rest` stands for any number of elements. */
const listMismatch = (patterns: ReadonlyArray<Pattern>, actual: ReadonlyArray<unknown>, path: string) => {
  let firstProblem: string | undefined
  const memo = new Map<string, boolean>()
  const fits = (p: number, a: number): boolean => {
    const key = `${p}:${a}`
    const known = memo.get(key)
    if (known !== undefined) return known
    let result: boolean
    if (p === patterns.length) result = a === actual.length
    else if (patterns[p].kind === "rest") result = fits(p + 1, a) || (a < actual.length && fits(p, a + 1))
    else if (a === actual.length) result = false
    else {
      const problem = mismatch(patterns[p], actual[a], `${path}[${a}]`)
      if (problem) firstProblem ??= problem
      result = problem === undefined && fits(p + 1, a + 1)
    }
    memo.set(key, result)
    return result
  }
  if (fits(0, 0)) return undefined
  const shown = patterns.filter((p) => p.kind !== "rest").length
  const counts = `${actual.length} element(s) against ${shown} documented${patterns.length > shown ? " and …" : ""}`
  return firstProblem ? `${firstProblem} (${counts})` : `${path}: ${counts}`
}

const foldSpace = (s: string) => s.replace(/\s+/g, " ").trim()

/** A parsed documented answer: the status it names (if any) and how to check the output. */
export interface Expectation {
  readonly status: number | undefined
  readonly check: (output: string) => string | undefined
}

export const expectation = (documented: string): Expectation => {
  const statusMatch = /^\s*(\d{3})(?=\s|$)/.exec(documented)
  const status = statusMatch ? Number(statusMatch[1]) : undefined
  const body = statusMatch ? documented.slice(statusMatch[0].length) : documented
  if (body.trim() === "")
    return {
      status,
      check: (output) => (output.trim() === "" ? undefined : `expected no output, got ${show(output.trim())}`)
    }
  let patterns: Array<Pattern> | undefined
  if (/^\s*[[{"]/.test(body)) {
    try {
      patterns = new PatternReader(body).sequence()
    } catch (e) {
      if (!(e instanceof PatternSyntax)) throw e
    }
  }
  if (patterns) {
    const list = patterns
    return {
      status,
      check: (output) => {
        const values = jsonValues(output)
        if (values === undefined) return `expected JSON, got ${show(output.trim())}`
        return listMismatch(list, values, "answer")
      }
    }
  }
  const text = wildcardRegExp(foldSpace(body))
  return {
    status,
    check: (output) =>
      text.test(foldSpace(output))
        ? undefined
        : `expected text ${show(foldSpace(body))}, got ${show(foldSpace(output))}`
  }
}
