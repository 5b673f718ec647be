// The import check `npm test` runs: the rules of .dependency-cruiser.cjs (layers, module cycles),
// then cycles between folders, which no module cycle shows (a → b in one pair of files, b → a in
// another): between the layers' folders and between the service folders under src/services.
import { execFileSync } from "node:child_process"

const result = JSON.parse(
  execFileSync(
    "npx",
    ["depcruise", "src", "bench", "eval", "test", "--config", ".dependency-cruiser.cjs", "--output-type", "json"],
    {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024
    }
  )
)
const problems = result.summary.violations.map((v) => {
  const through = v.cycle ? ` (round ${v.cycle.map((c) => c.name ?? c).join(" → ")})` : ""
  return `${v.rule.name}: ${v.from} → ${v.to}${through}`
})

const folderOf = (file) => /^src\/services\/[^/]+/.exec(file)?.[0] ?? /^src\/[^/]+(?=\/)/.exec(file)?.[0]
const edges = new Map()
for (const module of result.modules) {
  const from = folderOf(module.source)
  if (from === undefined) continue
  for (const dependency of module.dependencies) {
    const to = folderOf(dependency.resolved)
    if (to === undefined || to === from) continue
    if (!edges.has(from)) edges.set(from, new Map())
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} → ${dependency.resolved}`)
  }
}
// Tarjan's strongly connected components over the folders.
let counter = 0
const index = new Map()
const low = new Map()
const stack = []
const onStack = new Set()
const visit = (folder) => {
  index.set(folder, counter)
  low.set(folder, counter++)
  stack.push(folder)
  onStack.add(folder)
  for (const next of edges.get(folder)?.keys() ?? []) {
    if (!index.has(next)) {
      visit(next)
      low.set(folder, Math.min(low.get(folder), low.get(next)))
    } else if (onStack.has(next)) low.set(folder, Math.min(low.get(folder), index.get(next)))
  }
  if (low.get(folder) !== index.get(folder)) return
  const component = []
  for (let member; member !== folder; ) {
    member = stack.pop()
    onStack.delete(member)
    component.push(member)
  }
  if (component.length < 2) return
  const imports = component.flatMap((a) =>
    component.flatMap((b) => (edges.get(a)?.has(b) ? [`  ${edges.get(a).get(b)}`] : []))
  )
  problems.push(`folder-cycle: ${component.sort().join(", ")} import each other:\n${imports.join("\n")}`)
}
for (const folder of edges.keys()) if (!index.has(folder)) visit(folder)

if (problems.length > 0) {
  console.error(
    `${problems.length} import rule(s) broken (.dependency-cruiser.cjs states the layering):\n${problems.join("\n")}`
  )
  process.exit(1)
}
