/**
 * Seeded synthetic catalog of realistic products in the spec's product record format.
 * The same seed and count always give the same products, in the same order.
 */
import type { ProductRecord } from "../../src/domain/Product.js"
import { mulberry32, type Random } from "./random.js"
import { colours, departments, type Department, leaves, type Leaf, makeBrands, patterns } from "./taxonomy.js"

export interface GeneratedProduct {
  readonly id: string
  readonly data: ProductRecord
  readonly images: ReadonlyArray<{ readonly url: string }>
}

/** What the query workload needs to know about a product (kept for every product; small). */
export interface ProductSummary {
  readonly id: string
  readonly title: string
  readonly brand: string
  readonly noun: string
  readonly adjective: string
  readonly material: string | null
  readonly colour: string
  readonly spec: string
  readonly path: readonly [string, string, string]
  /** The price the shopper pays. */
  readonly price: number
  readonly mpn: string
}

const departmentWeights: Record<string, number> = {
  Clothing: 15,
  Home: 13,
  Electronics: 12,
  Kitchen: 10,
  Tools: 10,
  Sports: 10,
  Garden: 8,
  Toys: 8,
  Beauty: 8,
  Shoes: 6
}
const apparelSizes = ["XS", "S", "M", "L", "XL", "XXL"]
const kidsSizes = ["2-3 Years", "4-5 Years", "6-7 Years", "8-9 Years", "10-11 Years", "12-13 Years"]
const shoeSizes = ["36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46"]
const beddingSizes = ["Single", "Double", "King", "Super King"]
const energyCategories = new Set(["Small Appliances", "TV & Video", "Computers", "Lighting", "Cleaning", "Smart Home"])
const apparelLeaves = new Set([
  "Cycling Jerseys",
  "Running Jackets",
  "Running Tights",
  "Swimsuits",
  "Wetsuits",
  "Ski Jackets"
])

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

const roundPrice = (x: number) => (x >= 10 ? Math.max(0.99, Math.round(x) - 0.01) : Math.round(x * 100) / 100)

const ean13 = (random: Random): string => {
  const digits = Array.from({ length: 12 }, (_, i) => (i === 0 ? random.int(0, 9) : random.int(0, 9)))
  const sum = digits.reduce((s, d, i) => s + d * (i % 2 === 0 ? 1 : 3), 0)
  return [...digits, (10 - (sum % 10)) % 10].join("")
}

interface Base {
  readonly leaf: Leaf
  readonly brand: string
  readonly adjective: string
  readonly material: string | null
  readonly spec: string
  readonly listPrice: number
  readonly description: string
  readonly highlights: string | null
  readonly details: string | null
  readonly gender: ProductRecord["gender"]
  readonly ageGroup: ProductRecord["age_group"]
  readonly pattern: string | null
}

export const makeCatalog = (seed: number) => {
  const setup = mulberry32(seed).fork(1)
  const brands = makeBrands(setup)
  const leafWeights = leaves.map(
    (leaf) => [leaf, (Math.exp(0.6 * setup.normal()) * departmentWeights[leaf.department.name]) / 48] as const
  )
  const allBrands = brands.all

  const brandFor = (random: Random, department: Department) => {
    const own = brands.byDepartment.get(department.name)!
    return own.length > 0 ? random.zipf(own) : random.pick(allBrands)
  }

  const sizeFor = (random: Random, leaf: Leaf, ageGroup: ProductRecord["age_group"]): string | null => {
    const [dept, category, sub] = leaf.path
    if (dept === "Clothing" || apparelLeaves.has(sub))
      return ageGroup === "kids" ? random.pick(kidsSizes) : random.pick(apparelSizes)
    if (dept === "Shoes" && category !== "Shoe Care")
      return ageGroup === "kids" ? String(random.int(24, 35)) : random.pick(shoeSizes)
    if (category === "Bedding") return random.pick(beddingSizes)
    return null
  }

  const describe = (random: Random, leaf: Leaf, brand: string, adjective: string, material: string | null) => {
    const d = leaf.department
    const [f1, f2, f3] = random.shuffle(d.features)
    const use = random.pick(d.uses)
    const noun = leaf.noun.toLowerCase()
    const first = random.pick([
      `The ${brand} ${noun} combines ${f1} and ${f2} for ${use}.`,
      `A ${adjective.toLowerCase()} ${noun}${material ? ` in ${material.toLowerCase()}` : ""}, designed for ${use}.`,
      `${brand}'s ${adjective.toLowerCase()} ${noun} is built for ${use}, with ${f1}.`,
      `Meet the ${adjective.toLowerCase()} ${noun} from ${brand}: ${f1} and ${f2} in one.`
    ])
    const sentences = [first]
    if (random.chance(0.7)) {
      sentences.push(
        random.pick([
          `Features ${f2}, ${f3} and a ${random.pick(d.adjectives).toLowerCase()} finish.`,
          `Comes with ${f3}.`,
          `Ideal for ${random.pick(d.uses)} and ${use}.`,
          `Thoughtful details include ${f3}.`
        ])
      )
    }
    if (random.chance(0.4)) {
      sentences.push(
        random.pick([
          `Backed by a ${random.int(1, 5)}-year warranty.`,
          "Ships within two working days.",
          "Part of our best-selling range.",
          "Rated 4.5 out of 5 by our customers."
        ])
      )
    }
    const highlights = random.chance(0.6)
      ? random
          .shuffle(d.features)
          .slice(0, random.int(2, 4))
          .map((f) => `"${capitalise(f)}"`)
          .join(",")
      : null
    const details = random.chance(0.5)
      ? random
          .shuffle(d.details)
          .slice(0, random.int(1, 3))
          .map(([section, attribute, values]) => `${section}:${attribute}:${random.pick(values)}`)
          .join(", ")
      : null
    return { description: sentences.join(" "), highlights, details }
  }

  const newBase = (random: Random): Base => {
    const leaf = random.weighted(leafWeights)
    const d = leaf.department
    const brand = brandFor(random, d)
    const adjective = random.pick(d.adjectives)
    const material =
      d.materials.length > 0 && random.chance(0.45) ? random.pick(d.materials.filter((m) => m !== adjective)) : null
    const forKids = random.chance(d.forKids)
    const ageGroup: ProductRecord["age_group"] = forKids
      ? random.weighted([
          ["kids", 6],
          ["toddler", 2],
          ["infant", 1]
        ] as const)
      : d.gendered > 0
        ? "adult"
        : null
    const gender: ProductRecord["gender"] = random.chance(d.gendered)
      ? random.weighted([
          ["female", 5],
          ["male", 4],
          ["unisex", 2]
        ] as const)
      : null
    return {
      leaf,
      brand,
      adjective,
      material,
      spec: random.pick(d.specs),
      listPrice: roundPrice(d.priceMedian * Math.exp(d.priceSigma * random.normal())),
      ...describe(random, leaf, brand, adjective, material),
      gender,
      ageGroup,
      pattern: (d.name === "Clothing" || d.name === "Home") && random.chance(0.4) ? random.pick(patterns) : null
    }
  }

  /** The index-th product; `variant` is set for members of an item group. */
  const product = (
    random: Random,
    index: number,
    base: Base,
    variant: { group: string; colour: string; size: string | null } | null
  ) => {
    const { leaf } = base
    const d = leaf.department
    const id = `p${String(index).padStart(7, "0")}`
    const colour = variant?.colour ?? random.pick(colours)
    const size = variant ? variant.size : sizeFor(random, leaf, base.ageGroup)
    const words = [base.brand, base.adjective]
    if (base.material && !base.adjective.includes(base.material)) words.push(base.material)
    words.push(leaf.noun)
    if (base.spec) words.push(base.spec)
    let title = words.join(" ")
    if (variant) title += ` - ${colour}${variant.size ? `, ${variant.size}` : ""}`
    else if (d.name === "Clothing" || d.name === "Shoes" || random.chance(0.15)) title += `, ${colour}`
    const onSale = random.chance(0.2)
    const salePrice = onSale ? roundPrice(base.listPrice * (1 - random.int(10, 50) / 100)) : null
    const price = salePrice !== null && salePrice < base.listPrice ? salePrice : base.listPrice
    const mpn = `${base.brand.slice(0, 3).toUpperCase()}-${100000 + index}`
    const [dept, category] = leaf.path
    const pathText = leaf.path.join(" > ")
    const data: Record<string, unknown> = {
      title,
      description: base.description,
      link: `https://shop.example.com/p/${id}`,
      availability: random.weighted([
        ["in_stock", 80],
        ["out_of_stock", 10],
        ["backorder", 5],
        ["preorder", 5]
      ] as const),
      price: base.listPrice,
      product_type: pathText,
      brand: base.brand,
      mpn,
      condition: random.weighted([
        ["new", 95],
        ["refurbished", dept === "Electronics" ? 8 : 2],
        ["used", 1]
      ] as const),
      color: colour,
      product_weight: `${(d.weightKg[0] + (d.weightKg[1] - d.weightKg[0]) * random.next() ** 2).toFixed(2)} kg`
    }
    if (salePrice !== null) data.sale_price = salePrice
    if (random.chance(0.7)) data.shopping_product_category = random.chance(0.7) ? pathText : `${dept} > ${category}`
    if (random.chance(0.3)) data.mobile_link = `https://m.shop.example.com/p/${id}`
    if (random.chance(0.85)) data.gtin = ean13(random)
    if (base.material) data.material = base.material
    if (base.gender) data.gender = base.gender
    if (base.ageGroup) data.age_group = base.ageGroup
    if (size) {
      data.size = size
      if (d.name === "Clothing" || d.name === "Shoes") {
        data.size_system = random.weighted([
          ["EU", 5],
          ["UK", 3],
          ["US", 2]
        ] as const)
        if (d.name === "Clothing")
          data.size_type = random.weighted([
            ["regular", 20],
            ["petite", 1],
            ["tall", 1],
            ["plus", 2]
          ] as const)
      }
    }
    if (base.pattern) data.pattern = base.pattern
    if (base.highlights) data.product_highlight = base.highlights
    if (base.details) data.product_detail = base.details
    if (variant) data.item_group_id = variant.group
    if (d.hasEnergyClass && energyCategories.has(category))
      data.energy_efficiency_class = random.pick(["A+++", "A++", "A+", "A", "B", "C", "D"])
    if (onSale && random.chance(0.5))
      data.promotion_id = random.pick(["SPRING-SALE", "BLACK-FRIDAY", "CLEARANCE", "SUMMER-25"])
    if (random.chance(0.3)) data.custom_label_0 = random.pick(["bestseller", "new-arrival", "clearance", "exclusive"])
    if (random.chance(0.5)) data.custom_label_1 = random.pick(["margin-high", "margin-mid", "margin-low"])
    if (random.chance(0.05)) data.multipack = random.pick([2, 3, 4, 6, 12])
    if (random.chance(0.03)) data.is_bundle = true
    if (random.chance(0.25)) {
      data.product_length = `${random.int(5, 200)} cm`
      data.product_width = `${random.int(5, 120)} cm`
      data.product_height = `${random.int(1, 120)} cm`
    }
    const images = Array.from({ length: random.int(1, 3) }, (_, k) => ({
      url: `https://img.example.com/${id}/${k + 1}.jpg`
    }))
    const summary: ProductSummary = {
      id,
      title,
      brand: base.brand,
      noun: leaf.noun,
      adjective: base.adjective,
      material: base.material,
      colour,
      spec: base.spec,
      path: leaf.path,
      price,
      mpn
    }
    return { product: { id, data: data as ProductRecord, images } satisfies GeneratedProduct, summary }
  }

  /** Products 0..count-1; about 15% belong to item groups of 2–5 colour/size variants. */
  function* generate(count: number): Generator<{ product: GeneratedProduct; summary: ProductSummary }> {
    const random = mulberry32(seed).fork(2)
    let index = 0
    let groups = 0
    while (index < count) {
      const base = newBase(random)
      const dept = base.leaf.department.name
      const groupChance = dept === "Clothing" || dept === "Shoes" ? 0.11 : 0.045
      if (random.chance(groupChance)) {
        const group = `g${String(++groups).padStart(6, "0")}`
        const variantColours = random.shuffle(colours).slice(0, random.int(1, 3))
        const size0 = sizeFor(random, base.leaf, base.ageGroup)
        const sizes =
          size0 === null
            ? [null]
            : random
                .shuffle(
                  base.leaf.path[0] === "Shoes"
                    ? shoeSizes
                    : base.leaf.path[1] === "Bedding"
                      ? beddingSizes
                      : apparelSizes
                )
                .slice(0, random.int(1, 3))
        const combos = variantColours.flatMap((colour) => sizes.map((size) => ({ group, colour, size })))
        const members = combos.slice(0, Math.max(2, Math.min(5, combos.length)))
        if (members.length < 2) members.push({ group, colour: random.pick(colours), size: sizes[0] })
        for (const variant of members) {
          if (index >= count) break
          yield product(random, index++, base, variant)
        }
      } else {
        yield product(random, index++, base, null)
      }
    }
  }

  return { generate, brands: allBrands, departments }
}
