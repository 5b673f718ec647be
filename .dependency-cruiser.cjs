// The layering of src/, lowest first. A module may import from its own layer's folder and from
// the layers below it, never from a layer above it nor from a sibling in the same row; and no
// import cycle anywhere, between modules or between the service folders. `npm test` runs this.
const LAYERS = [
  ["platform"], // generic infrastructure: threads, Redis and SQLite helpers, caches
  ["domain"], // the wire: request and response schemas, tagged errors
  ["model"], // internal records: stored products, index documents, columns, job payloads
  ["text"], // text analysis: words, stems, variants, normal forms
  ["services"], // one folder per service: its interface and its backends
  ["learning"], // statistics learnt from shoppers' events
  ["visual-space"], // the learned visual space: the concept, its store and its fit job
  ["indexing", "search"], // the write side and the read side
  ["jobs"], // every job kind's handler
  ["mcp"],
  ["http"],
  ["topology"], // the one module that chooses backends
  ["App\\.ts"], // the api process's layers
  ["cli", "main\\.ts", "worker\\.ts"] // entry points
]

const folder = (name) => `^src/${name}(/|$)`
const above = (row) =>
  LAYERS.slice(row + 1)
    .flat()
    .map(folder)
    .join("|")
const siblings = (name, row) =>
  LAYERS[row]
    .filter((other) => other !== name)
    .map(folder)
    .join("|")

module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      severity: "error",
      comment: "modules that import each other, directly or round a loop",
      from: {},
      to: { circular: true }
    },
    ...LAYERS.slice(0, -1).map((row, i) => ({
      name: `layer-${row.join("-").replace(/\\\./g, "")}`,
      severity: "error",
      comment: `${row.join(", ")} may not import a layer above it (see LAYERS)`,
      from: { path: row.map(folder).join("|") },
      to: { path: above(i) }
    })),
    ...LAYERS.flatMap((row, i) =>
      row.length < 2
        ? []
        : row.map((name) => ({
            name: `siblings-${name.replace(/\\\./g, "")}`,
            severity: "error",
            comment: `${name} may not import its sibling layer`,
            from: { path: folder(name) },
            to: { path: siblings(name, i) }
          }))
    ),
    {
      name: "src-stands-alone",
      severity: "error",
      comment: "the service never imports tests, benchmarks or evaluations",
      from: { path: "^src/" },
      to: { path: "^(test|bench|eval)/" }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".cjs"] }
  }
}
