/**
 * Deepest nesting a JSON body may have. No request shape nests beyond a handful of levels;
 * schema decoding, error reporting and logging all recurse on the value, so a body of
 * thousands of levels ("[[[[…") would exhaust the stack on any of them.
 */
export const MAX_JSON_DEPTH = 64

/**
 * Whether a JSON text nests arrays and objects deeper than `limit`. One linear pass that
 * skips string contents, so it costs about as much as reading the body, whatever its shape;
 * malformed JSON is left for the parser to report.
 */
export const nestsDeeperThan = (text: string, limit: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: the next character is escaped
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}
