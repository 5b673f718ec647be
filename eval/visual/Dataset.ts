import * as fs from "node:fs"
import * as path from "node:path"

/**
 * The Grocery Store Dataset as the visual eval reads it (see /work/shared/data/README.md):
 * `classes.csv` (81 fine classes with their coarse class and iconic photo), the information
 * file next to each iconic photo, and the split lists `train.txt` / `val.txt`.
 */
export interface FineClass {
  readonly id: number
  /** As in classes.csv, e.g. "Golden-Delicious". */
  readonly name: string
  readonly coarseId: number
  readonly coarseName: string
  /** Fruit, Vegetables or Packages (the folder above the coarse class). */
  readonly parent: string
  /** Paths relative to the dataset dir (the URL path the image server uses). */
  readonly iconic: string
  readonly title: string
  readonly description: string
  /** `Parent > Coarse > Fine` with hyphens as spaces (the fine level is left out when it repeats the coarse one). */
  readonly categoryPath: string
}

export interface SplitPhoto {
  /** Relative to the dataset dir. */
  readonly path: string
  readonly fineId: number
  readonly coarseId: number
}

export interface GroceryDataset {
  readonly dir: string
  readonly classes: ReadonlyArray<FineClass>
  readonly byId: ReadonlyMap<number, FineClass>
}

/** "Sour-Milk" → "Sour Milk". */
export const label = (name: string) => name.replace(/[-_]+/g, " ").trim()

export const productIdOf = (c: FineClass) => `grocery-${c.id}-${c.name.toLowerCase()}`

/** Fields of an information file ("Title: …", "Description: …"); continuation lines are ignored. */
const readInformation = (file: string): Map<string, string> => {
  const fields = new Map<string, string>()
  if (!fs.existsSync(file)) return fields
  for (const line of fs
    .readFileSync(file, "utf8")
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)) {
    const m = /^([A-Za-z][A-Za-z ]*?):\s*(.*)$/.exec(line)
    if (m && !fields.has(m[1].toLowerCase())) fields.set(m[1].toLowerCase(), m[2].replace(/\s+/g, " ").trim())
  }
  return fields
}

/** Splits a CSV line (classes.csv has no quoted commas, but quotes are tolerated). */
const csvCells = (line: string) => line.split(",").map((c) => c.trim().replace(/^"(.*)"$/, "$1"))

export const loadGrocery = (dir: string): GroceryDataset => {
  const root = path.resolve(dir)
  const csv = path.join(root, "classes.csv")
  if (!fs.existsSync(csv)) throw new Error(`${root} is not the grocery dataset (no classes.csv)`)
  const lines = fs
    .readFileSync(csv, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim().length > 0)
  const classes: Array<FineClass> = []
  for (const line of lines.slice(1)) {
    const [name, id, coarseName, coarseId, iconicPath, descriptionPath] = csvCells(line)
    const iconic = iconicPath.replace(/^\/+/, "")
    const segments = iconic.split("/")
    // iconic-images-and-descriptions/<Parent>/<Coarse>/[<Fine>/]<file>
    const parent = segments[1] ?? "Unknown"
    const classDir = path.join(root, path.dirname(iconic))
    // Usually `<Fine>_Information.txt`; one class spells it `<Fine>-Information.txt`.
    const infoFile = fs.readdirSync(classDir).find((f) => /[-_]Information\.txt$/i.test(f))
    const info = infoFile === undefined ? new Map<string, string>() : readInformation(path.join(classDir, infoFile))
    const descriptionFile = path.join(root, descriptionPath.replace(/^\/+/, ""))
    const description =
      info.get("description") ??
      (fs.existsSync(descriptionFile) ? fs.readFileSync(descriptionFile, "utf8").replace(/\s+/g, " ").trim() : "")
    const labels = [parent, label(coarseName), label(name)]
    const categoryPath = (labels[2].toLowerCase() === labels[1].toLowerCase() ? labels.slice(0, 2) : labels).join(" > ")
    classes.push({
      id: Number(id),
      name,
      coarseId: Number(coarseId),
      coarseName,
      parent,
      iconic,
      title: info.get("title") || label(name),
      description,
      categoryPath
    })
  }
  if (classes.length === 0) throw new Error(`no classes in ${csv}`)
  return { dir: root, classes, byId: new Map(classes.map((c) => [c.id, c])) }
}

/** `train.txt` / `val.txt`: `path, fine id, coarse id` a line. */
export const loadSplit = (dataset: GroceryDataset, split: string): ReadonlyArray<SplitPhoto> => {
  const file = path.join(dataset.dir, `${split}.txt`)
  if (!fs.existsSync(file))
    throw new Error(
      `no split list ${file} ` +
        `(this copy holds ` +
        `${["train", "val"].filter((s) => fs.existsSync(path.join(dataset.dir, `${s}.txt`))).join(", ")})`
    )
  return fs
    .readFileSync(file, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim().length > 0)
    .map((line) => {
      const [p, fine, coarse] = csvCells(line)
      return { path: p.replace(/^\/+/, ""), fineId: Number(fine), coarseId: Number(coarse) }
    })
}

/** The first `perClass` photos of each fine class in list order (deterministic). */
export const firstPerClass = (
  photos: ReadonlyArray<SplitPhoto>,
  perClass: number
): ReadonlyMap<number, ReadonlyArray<SplitPhoto>> => {
  const out = new Map<number, Array<SplitPhoto>>()
  for (const photo of photos) {
    const list = out.get(photo.fineId) ?? []
    if (list.length < perClass) list.push(photo)
    out.set(photo.fineId, list)
  }
  return out
}
