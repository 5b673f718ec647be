import * as path from "node:path"

const here = import.meta.dirname
// Compiled, this file is dist/test/support/EntryPoint.js.
const compiled = path.basename(path.resolve(here, "../..")) === "dist"
/** The repository root, whether this file runs from test/support or from dist/test/support. */
export const repoRoot = path.resolve(here, compiled ? "../../.." : "../..")

/**
 * The node arguments that start one of the service's entry points (e.g. "src/main"): the
 * compiled JavaScript when this module itself runs compiled (`npm run bench` runs dist/, as
 * `npm start` does), else the TypeScript source through tsx (the test suite).
 */
export const entryPointArgs = (entry: string): Array<string> =>
  compiled ? [path.join("dist", `${entry}.js`)] : ["--import", "tsx", `${entry}.ts`]
