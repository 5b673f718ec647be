import { Logger, LogLevel } from "effect"

/**
 * No log lines from what a test builds: the tests assert behaviour (and capture the logs they
 * check), and a green run stays quiet. Provided to a layer, it also quiets the fibers the
 * layer forks (replica followers, flush loops).
 */
export const quiet = Logger.minimumLogLevel(LogLevel.None)
