import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    globalSetup: ["test/support/TempRoot.ts", "test/support/ConsoleBundle.ts"],
    setupFiles: ["test/support/TempRootSetup.ts"],
    hookTimeout: 120_000,
    // Suites start real servers and load real models; two forks match the 2-core machines.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } }
  }
})
