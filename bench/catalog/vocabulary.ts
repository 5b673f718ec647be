/**
 * The word lists of the index micro-benchmarks: product nouns, adjectives, colours, coined
 * brand names and a long tail of coined words, drawn from the caller's seeded `pick` (the
 * same seed gives the same lists).
 */
export const syntheticVocabulary = (pick: <A>(items: ReadonlyArray<A>) => A) => {
  const syllables = [
    "ka",
    "lo",
    "mi",
    "ner",
    "tra",
    "vel",
    "son",
    "dor",
    "pex",
    "qui",
    "ra",
    "tek",
    "zu",
    "bel",
    "cor",
    "fin"
  ]
  const coined = (parts: number) => Array.from({ length: parts }, () => pick(syllables)).join("")
  const nouns =
    `drill saw hammer sander grinder wrench ladder hose mower trimmer rake shovel planter kettle toaster blender
    mixer skillet knife grater jacket shirt dress jeans sneaker boot scarf glove headphone speaker charger cable router
    monitor keyboard mouse camera lamp rug curtain pillow blanket mattress tent backpack bottle bicycle helmet racket
    ball puzzle doll robot kite`
      .split(/\s+/)
      .filter(Boolean)
  const adjectives =
    `cordless wireless compact heavy-duty waterproof portable stainless organic slim classic vintage premium
    ergonomic foldable rechargeable lightweight insulated adjustable digital smart`
      .split(/\s+/)
      .filter(Boolean)
  const colours = [
    "black",
    "white",
    "red",
    "blue",
    "green",
    "grey",
    "yellow",
    "pink",
    "brown",
    "orange",
    "navy",
    "beige"
  ]
  const brands = Array.from({ length: 150 }, () => coined(2))
  const vocabulary = [
    ...`the and with for of a to in is high quality durable design easy use perfect home
    everyday ideal gift material comfortable long lasting battery power performance warranty`
      .split(/\s+/)
      .filter(Boolean),
    ...nouns,
    ...adjectives,
    ...colours,
    ...Array.from({ length: 3000 }, () => coined(3))
  ]
  return { coined, nouns, adjectives, colours, brands, vocabulary }
}
