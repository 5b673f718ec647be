import { describe, expect, it } from "vitest"
import { plainIssueMessage } from "../../src/domain/IssueMessage.js"

describe("plainIssueMessage", () => {
  it("names the JSON kind a field takes instead of the schema's TypeScript shape", () => {
    expect(plainIssueMessage(`Expected ReadonlyArray<{ readonly url: { string | filter } }>, actual "nope"`)).toBe(
      `must be an array, not "nope"`
    )
    expect(
      plainIssueMessage(
        `Expected { readonly excluded?: ReadonlyArray<{ readonly column: minLength(1) }> | undefined }, actual "x"`
      )
    ).toBe(`must be an object, not "x"`)
    expect(plainIssueMessage(`Expected string, actual 5`)).toBe(`must be a string, not 5`)
    expect(plainIssueMessage(`Expected minLength(1), actual null`)).toBe(`must be a string, not null`)
    expect(plainIssueMessage(`Expected Int, actual "3"`)).toBe(`must be a number, not "3"`)
    expect(plainIssueMessage(`Expected boolean, actual "yes"`)).toBe(`must be true or false, not "yes"`)
    expect(plainIssueMessage(`Expected "asc" | "desc", actual "up"`)).toBe(`must be one of "asc", "desc", not "up"`)
    expect(plainIssueMessage(`Expected string | undefined, actual 1`)).toBe(`must be a string, not 1`)
  })

  it("shortens a long actual value and leaves other rules' messages alone", () => {
    expect(plainIssueMessage(`Expected string, actual ${JSON.stringify("x".repeat(200))}`)).toBe(
      `must be a string, not "${"x".repeat(56)}...`
    )
    expect(plainIssueMessage("must be at most 70 characters")).toBe("must be at most 70 characters")
    expect(plainIssueMessage('is unexpected, expected: "query"')).toBe('is unexpected, expected: "query"')
    // A shape it cannot name keeps Effect's words rather than guessing.
    expect(plainIssueMessage("Expected SomethingCustom, actual 1")).toBe("Expected SomethingCustom, actual 1")
  })
})
