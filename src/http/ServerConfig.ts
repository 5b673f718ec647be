import { Config } from "effect"

/** Where the api listens and how large a request body may be (HOST, PORT, MAX_BODY_BYTES). */
export const ServerConfig = Config.all({
  host: Config.string("HOST").pipe(Config.withDefault("0.0.0.0")),
  port: Config.integer("PORT").pipe(Config.withDefault(8080)),
  maxBodyBytes: Config.integer("MAX_BODY_BYTES").pipe(
    Config.validate({ message: "must be a positive number of bytes", validation: (n) => n > 0 }),
    Config.withDefault(10 * 1024 * 1024)
  )
})
