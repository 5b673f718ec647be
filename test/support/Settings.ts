import { ConfigProvider, Layer } from "effect"

/**
 * Settings for a test, benchmark or evaluation run, by their environment names (README
 * "Configuration"): every service reads its settings through Effect's Config, so a map
 * replaces the environment. Unlisted settings take their defaults; the process environment is
 * not consulted, so a REDIS_URL or QDRANT_URL exported in the shell cannot change a test's
 * topology.
 */
export const settings = (values: Readonly<Record<string, string | number | boolean | undefined>>) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(
    new Map(Object.entries(values).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])))
  ))
