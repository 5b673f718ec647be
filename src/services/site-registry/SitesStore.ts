import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Config, Effect, Option, ParseResult, Schema } from "effect"
import { SitesFile } from "../../domain/Site.js"
import { BackendFailure } from "../../platform/BackendFailure.js"

/** The sites file could not be read, decoded or written; `message` says which and why. */
/** SITES_FILE: the site registry the api serves and `npm run site` edits (default ./config/sites.json). */
export const SitesFilePath = Config.string("SITES_FILE").pipe(
  Config.withDefault("./config/sites.json"),
  Config.map((file) => path.resolve(file))
)

export class SitesFileError extends BackendFailure("SitesFileError") {}

const SitesJson = Schema.parseJson(SitesFile, { space: 2 })

/** One "path: problem" line per issue; the default tree repeats the whole schema. */
export const describeParseError = (error: ParseResult.ParseError): string =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map(({ message, path }) => `${path.length > 0 ? `${path.join(".")}: ` : ""}${message}`)
    .join("\n")

/** The decoded file, or None when it does not exist yet. */
export const readSitesFile = (file: string): Effect.Effect<Option.Option<SitesFile>, SitesFileError> =>
  Effect.tryPromise({
    try: () => fs.readFile(file, "utf8"),
    catch: (e) => e as NodeJS.ErrnoException
  }).pipe(
    Effect.map(Option.some),
    Effect.catchIf(
      (e) => e.code === "ENOENT",
      () => Effect.succeed(Option.none<string>())
    ),
    Effect.mapError((e) => new SitesFileError({ message: `cannot read ${file}: ${e.message}` })),
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.succeedNone,
        onSome: (text) =>
          Schema.decode(SitesJson, { errors: "all" })(text).pipe(
            Effect.map(Option.some),
            Effect.mapError((e) => new SitesFileError({ message: `invalid ${file}: ${describeParseError(e)}` }))
          )
      })
    )
  )

/**
 * Writes to a temp file in the same directory and renames it over the target, so a reader
 * (the server's watcher) never sees half a file. Mode 0600: the file holds token secrets.
 */
export const writeSitesFile = (file: string, sites: SitesFile): Effect.Effect<void, SitesFileError> =>
  Effect.gen(function* () {
    const text = yield* Schema.encode(SitesJson)(sites).pipe(Effect.orDie)
    const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`
    yield* Effect.tryPromise(async () => {
      await fs.mkdir(path.dirname(file), { recursive: true })
      const handle = await fs.open(temp, "w", 0o600)
      try {
        await handle.writeFile(`${text}\n`)
        await handle.sync()
      } finally {
        await handle.close()
      }
      await fs.rename(temp, file)
    }).pipe(
      Effect.tapError(() => Effect.promise(() => fs.rm(temp, { force: true }))),
      Effect.mapError((e) => new SitesFileError({ message: `cannot write ${file}: ${String(e.error)}` }))
    )
  })
