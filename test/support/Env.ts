/**
 * Sets environment variables read by layers as they are built (undefined deletes one), and
 * returns the function that puts back what was there before.
 */
export const setEnv = (vars: Readonly<Record<string, string | undefined>>): (() => void) => {
  const previous = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]))
  const apply = (values: Readonly<Record<string, string | undefined>>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
  apply(vars)
  return () => apply(previous)
}

/** The image intake may fetch from loopback, where the tests' photo hosts listen. */
export const loopbackImages = { IMAGE_ALLOWED_CIDRS: "127.0.0.0/8" } as const
