import { ConfigProvider, Layer } from "effect"

/** Settings by their environment names (config/settings.env); undefined leaves one unset. */
export type SettingValues = Readonly<Record<string, string | number | boolean | undefined>>

const fromValues = (values: SettingValues) =>
  ConfigProvider.fromMap(
    new Map(Object.entries(values).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])))
  )

/**
 * Settings for a test by their environment names (config/settings.env): every service reads
 * its settings through Effect's Config, so a map replaces the environment. Unlisted settings
 * take their defaults; the process environment is not consulted, so a REDIS_URL or QDRANT_URL
 * exported in the shell cannot change a test's topology.
 */
export const settings = (values: SettingValues) => Layer.setConfigProvider(fromValues(values))

/**
 * Settings for a benchmark or evaluation run: these values, then the environment, as the
 * service itself reads it (so `IMAGE_THREADS=2 npm run bench` tunes the api it measures).
 */
export const settingsOverEnv = (values: SettingValues) =>
  Layer.setConfigProvider(fromValues(values).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv())))
