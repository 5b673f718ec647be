import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto"
import { Effect } from "effect"

/**
 * scrypt with N=2^14, r=8, p=1 costs 16 MiB (128·N·r) and noticeable CPU time per check:
 * cheap enough for a login, expensive for someone guessing passwords from a stolen file.
 */
const COST = { N: 16384, r: 8, p: 1 }
const KEY_LENGTH = 32

const derive = (password: string, salt: Buffer, options: ScryptOptions, keyLength: number) =>
  Effect.async<Buffer, Error>((resume) => {
    // maxmem must exceed 128*N*r; the default (32 MiB) leaves no headroom for stronger params.
    scrypt(password, salt, keyLength, { ...options, maxmem: 256 * options.N! * options.r! }, (err, key) =>
      resume(err ? Effect.fail(err) : Effect.succeed(key))
    )
  })

/** "scrypt$N$r$p$saltB64$hashB64": the parameters travel with the hash, so they can be raised later. */
export const hashPassword = (password: string): Effect.Effect<string> => {
  const salt = randomBytes(16)
  return derive(password, salt, COST, KEY_LENGTH).pipe(
    Effect.map((key) => `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString("base64")}$${key.toString("base64")}`),
    Effect.orDie
  )
}

/** False for a wrong password and for a hash this code cannot read; never fails. */
export const verifyPassword = (password: string, stored: string): Effect.Effect<boolean> => {
  const [scheme, n, r, p, salt, hash] = stored.split("$")
  if (scheme !== "scrypt" || hash === undefined) return Effect.succeed(false)
  const expected = Buffer.from(hash, "base64")
  return derive(
    password,
    Buffer.from(salt, "base64"),
    { N: Number(n), r: Number(r), p: Number(p) },
    expected.length
  ).pipe(
    Effect.map((actual) => timingSafeEqual(actual, expected)),
    Effect.orElseSucceed(() => false)
  )
}

/** Random bytes as URL-safe text: passwords and username suffixes. */
export const randomToken = (bytes: number): string => randomBytes(bytes).toString("base64url")
