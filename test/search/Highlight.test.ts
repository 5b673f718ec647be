import { describe, expect, it } from "vitest"
import { highlightTitle, htmlText, snippet } from "../../src/search/Highlight.js"
import { DEFAULT_WORD_MATCHING } from "../../src/text/TextAnalysis.js"

const submitted = DEFAULT_WORD_MATCHING
const live = { ...DEFAULT_WORD_MATCHING, live: true }

describe("highlights", () => {
  it("marks the title's words that match the query's, by stem, whole hyphenated words, HTML-escaped", () => {
    expect(highlightTitle("Cordless Drills & <Drivers>", "cordless drill", submitted)).toBe(
      "<mark>Cordless</mark> <mark>Drills</mark> &amp; &lt;Drivers&gt;"
    )
    expect(highlightTitle("Nike Dri-FIT Running T-Shirt", "tshirt", submitted)).toBe(
      "Nike Dri-FIT Running <mark>T-Shirt</mark>"
    )
    // Stop words are no matches.
    expect(highlightTitle("Case for the iPhone", "case for iphone", submitted)).toBe(
      "<mark>Case</mark> for the <mark>iPhone</mark>"
    )
  })

  it("marks typos within the word's budget, completions only while typing, digits only exactly", () => {
    expect(highlightTitle("Cordless Drill", "cordles", submitted)).toBe("<mark>Cordless</mark> Drill")
    expect(highlightTitle("Cordless Drill", "cordl", submitted)).toBe("Cordless Drill")
    expect(highlightTitle("Cordless Drill", "drill cordl", live)).toBe("<mark>Cordless</mark> <mark>Drill</mark>")
    expect(highlightTitle("R-5 Insulation, R-6 Roll", "r-5", submitted)).toBe("<mark>R-5</mark> Insulation, R-6 Roll")
    expect(highlightTitle("Drill Kit DCD771C2", "dcd771", submitted)).toBe("Drill Kit <mark>DCD771C2</mark>")
    expect(highlightTitle("Galaxy Buds2 Pro", "buds", submitted)).toBe("Galaxy <mark>Buds2</mark> Pro")
  })

  it("marks no typos of a word the text holds whole, nor of a word of the language; the fewest edits under min", () => {
    expect(highlightTitle("Short Sleeve Shirt", "shirt", submitted)).toBe("Short Sleeve <mark>Shirt</mark>")
    expect(highlightTitle("Short Sleeve Top", "shirt", submitted)).toBe("<mark>Short</mark> Sleeve Top")
    expect(highlightTitle("Coach Bag", "couch", submitted)).toBe("<mark>Coach</mark> Bag")
    expect(highlightTitle("Coach Bag", "couch", { ...submitted, languageWords: ["couch"] })).toBe("Coach Bag")
    expect(highlightTitle("Coach Bag", "couch", { ...submitted, typoTolerance: false })).toBe("Coach Bag")
    const twoTypos = { ...submitted, minWordSizeFor2Typos: 4 }
    expect(highlightTitle("Bold Belt Bell", "bolt", twoTypos)).toBe(
      "<mark>Bold</mark> <mark>Belt</mark> <mark>Bell</mark>"
    )
    expect(highlightTitle("Bold Belt Bell", "bolt", { ...twoTypos, typoTolerance: "min" })).toBe(
      "<mark>Bold</mark> <mark>Belt</mark> Bell"
    )
  })

  it("cuts a description snippet where the most query words meet, with ellipses where cut", () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`)
    words[30] = "drill"
    const text = `${words.join(" ")}.`
    const cut = snippet(text, "drill", submitted)!
    expect(cut.startsWith("…w26 w27 w28 w29 <mark>drill</mark> w31")).toBe(true)
    expect(cut.endsWith("w49…")).toBe(true)
    expect(cut.split(" ")).toHaveLength(24)
    // Where the most of the query's words meet, not merely the first match.
    const spread = Array.from({ length: 80 }, (_, i) => `w${i}`)
    spread[5] = "drill"
    spread[60] = "cordless"
    spread[61] = "drill"
    const dense = snippet(spread.join(" "), "cordless drill", submitted)!
    expect(dense.startsWith("…w56 w57 w58 w59 <mark>cordless</mark> <mark>drill</mark> w62")).toBe(true)
    expect(dense.endsWith(" w79")).toBe(true)
    // Near the start: no leading ellipsis; a short description whole.
    expect(snippet("A compact drill for <b>every</b> job.", "drill", submitted)).toBe(
      "A compact <mark>drill</mark> for &lt;b&gt;every&lt;/b&gt; job."
    )
    // No match: the opening; nothing to cut: null.
    expect(snippet(text, "saw", submitted)!.startsWith("w0 w1")).toBe(true)
    expect(snippet("", "drill", submitted)).toBeNull()
  })

  it("cuts snippets from the description's text: tags dropped, entities decoded, then escaped again", () => {
    const html =
      "<p>A <b>cordless</b> drill&nbsp;&amp; driver</p><script>alert(1)</script><ul><li>2&#215;20V &lt;batteries&gt;</li></ul>"
    expect(htmlText(html)).toBe("A cordless drill & driver 2×20V <batteries>")
    expect(snippet(htmlText(html), "drill", submitted)).toBe(
      "A cordless <mark>drill</mark> &amp; driver 2×20V &lt;batteries&gt;"
    )
    expect(htmlText("&#0; &#xD800; &bogus; ok")).toBe("ok")
  })
  it("gives the snippet docs/api.md shows", () => {
    const html =
      "<p>Built for daily jobs around the house and the workshop, this kit comes with two batteries and a fast " +
      "charger. The compact <b>cordless drill</b> driver fits tight spaces &amp; drives long screws into " +
      "hardwood without stalling, with 15 torque settings and an LED work light.</p>"
    expect(highlightTitle("Bosch Cordless Drill 18V", "cordless drill", submitted)).toBe(
      "Bosch <mark>Cordless</mark> <mark>Drill</mark> 18V"
    )
    expect(snippet(htmlText(html), "cordless drill", submitted)).toBe(
      "…fast charger. The compact <mark>cordless</mark> <mark>drill</mark> driver fits tight spaces &amp; drives " +
        "long screws into hardwood without stalling, with 15 torque settings and an LED…"
    )
  })
})
