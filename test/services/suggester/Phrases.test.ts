import { describe, expect, it } from "vitest"
import { productPhrases, TITLE } from "../../../src/services/suggester/Phrases.js"

/** The completions a title gives, with the brand as the feed names it. */
const fromTitle = (title: string, brand?: string): ReadonlyArray<string> =>
  productPhrases({ title, brand, categories: [] })
    .filter(([, kind]) => kind === TITLE)
    .map(([phrase]) => phrase)

describe("productPhrases: what a title offers as completions", () => {
  it("ends runs inside a phrase at its head noun, never at a word that describes it", () => {
    const phrases = fromTitle("Sony WH-1000XM5 Wireless Noise Canceling Headphones", "Sony")
    expect(phrases).toEqual(
      expect.arrayContaining([
        "headphones",
        "noise canceling headphones",
        "wireless noise canceling headphones",
        "sony wh 1000xm5"
      ])
    )
    expect(phrases.filter((p) => /(wireless|noise|canceling)$/.test(p))).toEqual([])
  })

  it("finds the head before a trailing model code, colour, size or package", () => {
    expect(fromTitle("Bosch Professional Cordless Drill GSR 12V")).toContain("cordless drill")
    expect(fromTitle("Bosch Professional Cordless Drill GSR 12V").filter((p) => /gsr|12v/.test(p))).toEqual([])
    expect(fromTitle("Kalo Heavy Duty Sander AB1234 Black")).toContain("heavy duty sander")
    expect(fromTitle("Buffy Cloud Comforter Queen")).toContain("cloud comforter")
    expect(fromTitle("Bush's Best Black Beans 15 oz Can", "Bush's Best")).toContain("black beans")
    // Capitals that name the thing sold stay its head; the model's capitals ("USB 3.2") do not.
    expect(fromTitle("Samsung T7 Portable SSD 1TB USB 3.2", "Samsung")).toEqual(
      expect.arrayContaining(["portable ssd", "samsung t7"])
    )
    // A colour with nothing it trails is the phrase's head.
    expect(fromTitle("Gildan Heavy Cotton Tee - Matte Black")).toContain("matte black")
  })

  it("never ends at a number cut from its unit, nor runs through a quantity", () => {
    const phrases = fromTitle("Cable Matters Cat 6 Ethernet Cable 25 ft")
    expect(phrases).toContain("ethernet cable")
    expect(phrases.filter((p) => /25|ft/.test(p))).toEqual([])
    const pan = fromTitle("Lodge 12 in. Pre-Seasoned Cast Iron Skillet", "Lodge")
    expect(pan).toContain("cast iron skillet")
    expect(pan).not.toContain("lodge 12")
  })

  it("keeps the brand whole and names a product line at its model number", () => {
    const pan = fromTitle("Made In 10 Inch Stainless Clad Frying Pan", "Made In")
    expect(pan).toEqual(expect.arrayContaining(["made in", "stainless clad frying pan"]))
    expect(pan).not.toContain("made")
    expect(fromTitle("Jabra Elite 4 True Wireless Earbuds", "Jabra")).toEqual(
      expect.arrayContaining(["jabra elite", "jabra elite 4", "jabra elite 4 true wireless earbuds"])
    )
    // A phrase after "for" names what the product fits.
    expect(fromTitle("Spigen Tough Armor Case for iPhone 15 Pro", "Spigen")).toEqual(
      expect.arrayContaining(["iphone 15", "iphone 15 pro", "tough armor case"])
    )
  })

  it("completes a qualifier only after the noun it qualifies, and that noun alone", () => {
    const set = fromTitle("Makita Cordless Drill Driver Set", "Makita")
    expect(set).toEqual(expect.arrayContaining(["cordless drill driver", "drill driver set", "driver"]))
    expect(set).not.toContain("set")
    const airpods = fromTitle("Apple AirPods Pro (2nd Generation) with MagSafe Charging Case", "Apple")
    expect(airpods).toEqual(expect.arrayContaining(["airpods pro", "airpods", "magsafe charging case"]))
    expect(airpods.filter((p) => p === "pro" || /generation|2nd/.test(p))).toEqual([])
    // After a number it qualifies that number: no completion starts at it.
    const drill = fromTitle("DEWALT 20V MAX Cordless Drill", "DEWALT")
    expect(drill).toEqual(expect.arrayContaining(["cordless drill", "dewalt 20v max cordless drill"]))
    expect(drill).not.toContain("max cordless drill")
  })

  it("gives no head to a word that shares the next phrase's ('Coffee and Espresso Machine')", () => {
    const machine = fromTitle("Nespresso Vertuo Next Coffee and Espresso Machine", "Nespresso")
    expect(machine).toContain("espresso machine")
    expect(machine.filter((p) => p.endsWith("coffee"))).toEqual([])
    expect(fromTitle("T-fal Nonstick Pots and Pans", "T-fal")).toEqual(
      expect.arrayContaining(["nonstick pots", "pans"])
    )
  })

  it("keeps a particle with its word: 'Lace Up Boots', 'Over Ear Headphones' unhyphenated", () => {
    const boots = fromTitle("Dr. Martens 1460 Smooth Leather Lace Up Boots", "Dr. Martens")
    expect(boots).toContain("lace up boots")
    expect(boots).not.toContain("up boots")
    const headphones = fromTitle("Sony Over Ear Headphones", "Sony")
    expect(headphones).toEqual(expect.arrayContaining(["over ear headphones", "headphones"]))
    expect(headphones).not.toContain("ear headphones")
    const bed = fromTitle("DHP Modern Metal Bunk Bed Twin over Twin", "DHP")
    expect(bed).toEqual(expect.arrayContaining(["metal bunk bed", "bunk bed"]))
    expect(bed.filter((p) => /over$/.test(p))).toEqual([])
  })
})
