import { describe, expect, it } from "vitest"
import { expectation, jsonValues, shellBlocks } from "./DocBlocks.js"

const check = (documented: string, output: string) => expectation(documented).check(output)

describe("shell blocks of a markdown page", () => {
  const page = [
    "Intro",
    "```sh",
    "curl localhost:8080/healthz",
    '# → 200 {"status":"ok"}',
    "curl -X POST localhost:8080/events \\",
    "  -d '{}'",
    '# → 400 {"message":"…",',
    '#   "issues":[…]}',
    "# a plain comment",
    "echo done   # → done",
    "echo untold",
    "```",
    "",
    "<!-- not run: needs Docker -->",
    "",
    "```sh",
    "docker-compose up -d",
    "```",
    "```ts",
    "const x = 1",
    "```"
  ].join("\n")

  it("split into commands and the answers documented after them", () => {
    const { blocks, errors } = shellBlocks("page.md", page)
    expect(errors).toEqual([])
    expect(blocks.map((b) => b.notRun)).toEqual([undefined, "needs Docker"])
    expect(blocks[0].segments).toEqual([
      { commands: "curl localhost:8080/healthz", expected: '200 {"status":"ok"}', line: 4 },
      {
        commands: "curl -X POST localhost:8080/events \\\n  -d '{}'",
        expected: '400 {"message":"…",\n"issues":[…]}',
        line: 7
      },
      { commands: "# a plain comment\necho done  ", expected: "done", line: 10 },
      { commands: "echo untold", expected: undefined, line: 11 }
    ])
  })

  it("refuse shell blocks the test would not run", () => {
    const { errors } = shellBlocks(
      "page.md",
      "```bash\nls\n```\n```\ncurl localhost:8080\n```\n<!-- not run: -->\n```sh\nx\n```"
    )
    expect(errors).toEqual([
      "page.md:1: a shell block must be labelled sh (the test runs those), not bash",
      "page.md:4: commands in a block without a language; label it sh (or mark it not run)",
      'page.md:8: "not run" needs its reason'
    ])
  })
})

describe("documented answers", () => {
  it("name the status before the body", () => {
    expect(expectation('404 {"message":"…"}').status).toBe(404)
    expect(expectation("eyJ…").status).toBeUndefined()
  })

  it("match JSON with the members shown, in any order, ellipses standing for the rest", () => {
    expect(check('{"a":1,…}', '{"b":2,"a":1}')).toBeUndefined()
    expect(check('{"a":{…},"b":[…]}', '{"a":{"x":1},"b":[]}')).toBeUndefined()
    expect(check('{"id":"img_…"}', '{"id":"img_4da4"}')).toBeUndefined()
    expect(check('{"list":[{"id":1,…},…,{"id":9,…}]}', '{"list":[{"id":1,"x":0},{"id":5},{"id":9}]}')).toBeUndefined()
    expect(check('{"a":…}', '{"a":[1,2]}')).toBeUndefined()
  })

  it("fail on any difference in what is shown", () => {
    expect(check('{"a":1,…}', '{"a":2}')).toMatch(/answer\[0\]\.a: expected 1, got 2/)
    expect(check('{"a":1}', '{"a":1,"b":2}')).toMatch(/members not documented.*b/)
    expect(check('{"a":1,…}', '{"b":1}')).toMatch(/answer\[0\]\.a: missing/)
    expect(check('{"list":[1,2]}', '{"list":[2,1]}')).toMatch(/expected 1, got 2/)
    expect(check('{"list":[1,…]}', '{"list":[]}')).toMatch(/0 element/)
    expect(check('{"id":"img_…"}', '{"id":"pic_1"}')).toBeDefined()
    expect(check('{"a":"1"}', '{"a":1}')).toMatch(/expected a string/)
    expect(check('{"a":1}', "not json")).toMatch(/expected JSON/)
  })

  it("match a sequence of answers (NDJSON) with … for any number of them", () => {
    const lines = '{"line":1}\n{"line":2}\n{"line":3}\n'
    expect(check('{"line":1}\n…\n{"line":3}', lines)).toBeUndefined()
    expect(check('{"line":1}\n{"line":3}', lines)).toBeDefined()
    expect(jsonValues('{"a":"}{"}[1]"x" 2')).toEqual([{ a: "}{" }, [1], "x", 2])
  })

  it("match text with whitespace folded and … for anything", () => {
    expect(
      check("1 Demo shop users: s1-… campaigns: 0", "1\tDemo shop\tusers: s1-ab12\tcampaigns: 0\n")
    ).toBeUndefined()
    expect(check("Campaign 1 saved for site 1.", "Campaign 2 saved for site 1.")).toBeDefined()
    expect(check("", "")).toBeUndefined()
    expect(check("", "something")).toMatch(/expected no output/)
  })
})
