import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

/**
 * docker-compose.yml as docker-compose itself reads it (`docker-compose config`: validated,
 * anchors merged, defaults filled in), so the checks below see what `up` would run.
 */
const root = fileURLToPath(new URL("../..", import.meta.url))

const runs = (command: string, args: ReadonlyArray<string>) => {
  const probe = spawnSync(command, args, { stdio: "ignore" })
  return probe.error === undefined && probe.status === 0
}
// docker-compose prints YAML only; PyYAML (a dependency of the Debian docker-compose package) turns it into JSON.
const skipReason = !runs("docker-compose", ["version"])
  ? "docker-compose is not installed (`npm run setup` installs the Debian package)"
  : !runs("python3", ["-c", "import yaml"])
    ? "python3 with PyYAML is missing (it reads docker-compose's YAML output)"
    : null
if (skipReason !== null) console.warn(`test/ops/compose.test.ts: skipping the docker-compose checks: ${skipReason}`)

interface Service {
  readonly image?: string
  readonly build?: unknown
  readonly command?: ReadonlyArray<string>
  readonly environment?: Record<string, string>
  readonly ports?: ReadonlyArray<{ readonly published: number | string; readonly target: number }>
  readonly volumes?: ReadonlyArray<string | { readonly target: string }>
  readonly healthcheck?: { readonly test: ReadonlyArray<string> }
  readonly depends_on?: Record<string, { readonly condition: string }>
  readonly container_name?: string
  readonly stop_grace_period?: string
}

let loaded: Record<string, Service> | undefined
const services = (): Record<string, Service> => {
  if (loaded === undefined) {
    const yaml = execFileSync("docker-compose", ["-f", "docker-compose.yml", "config"], { cwd: root, encoding: "utf8" })
    const json = execFileSync(
      "python3",
      ["-c", "import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)"],
      {
        input: yaml,
        encoding: "utf8"
      }
    )
    loaded = (JSON.parse(json) as { services: Record<string, Service> }).services
  }
  return loaded
}

const mountTargets = (service: Service) =>
  (service.volumes ?? []).map((v) => (typeof v === "string" ? v.split(":")[1] : v.target))
const seconds = (duration: string | undefined) => {
  const match = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(duration ?? "")
  return match === null ? 0 : Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0)
}
/** The value after `flag` in a command line. */
const flag = (command: ReadonlyArray<string> | undefined, name: string) => command?.[command.indexOf(name) + 1]

const check = it.skipIf(skipReason !== null)

describe("docker-compose.yml", () => {
  check("has the four services of the distributed topology", () => {
    expect(Object.keys(services()).sort()).toEqual(["api", "qdrant", "redis", "worker"])
  })

  check("redis keeps acknowledged writes (AOF) and never evicts, on a volume, with a ping healthcheck", () => {
    const redis = services().redis
    expect(redis.image).toMatch(/^redis:7/)
    expect(redis.command?.[0]).toBe("redis-server")
    expect(flag(redis.command, "--appendonly")).toBe("yes")
    expect(flag(redis.command, "--maxmemory-policy")).toBe("noeviction")
    expect(mountTargets(redis)).toContain("/data")
    expect(redis.healthcheck?.test).toEqual(["CMD", "redis-cli", "ping"])
  })

  check("qdrant keeps its storage on a volume and is healthy once ready", () => {
    const qdrant = services().qdrant
    expect(qdrant.image).toMatch(/^qdrant\/qdrant:/)
    expect(mountTargets(qdrant)).toContain("/qdrant/storage")
    expect(qdrant.healthcheck?.test.join(" ")).toContain("/readyz")
  })

  check("api and worker run the same image with the backends' addresses under the names the code reads", () => {
    const { api, worker } = services()
    expect(api.build).toBeDefined()
    expect(worker.image).toBe(api.image)
    expect(api.environment).toMatchObject({ REDIS_URL: "redis://redis:6379", QDRANT_URL: "http://qdrant:6333" })
    expect(worker.environment).toEqual(api.environment)
    const code = ["src"]
      .flatMap((dir) =>
        fs
          .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
          .filter((file) => file.endsWith(".ts"))
          .map((file) => fs.readFileSync(path.join(root, dir, file), "utf8"))
      )
      .join("\n")
    for (const name of Object.keys(api.environment ?? {}))
      expect(code, `${name} is read by src/`).toContain(`"${name}"`)
  })

  check("api serves on 8080 with a /healthz healthcheck, keeps its data dir and site registry on volumes", () => {
    const api = services().api
    // The image holds the compiled service (the Dockerfile runs `npm run build`); `serve` runs it
    // without rebuilding at every container start.
    expect(api.command).toEqual(["npm", "run", "serve"])
    const dockerfile = fs.readFileSync(path.join(root, "Dockerfile"), "utf8")
    expect(dockerfile).toMatch(/^RUN npm run build$/m)
    // and the text model, which nothing fetches at run time.
    expect(dockerfile).toMatch(/^RUN npx tsx src\/cli\/text-model\.ts$/m)
    expect(api.ports?.map((p) => [Number(p.published), p.target])).toEqual([[8080, 8080]])
    expect(api.healthcheck?.test.join(" ")).toContain("http://127.0.0.1:8080/healthz")
    expect(mountTargets(api)).toEqual(
      expect.arrayContaining([api.environment?.DATA_DIR, path.posix.dirname(api.environment?.SITES_FILE ?? "")])
    )
  })

  check("api and worker start only once redis and qdrant are healthy", () => {
    for (const name of ["api", "worker"]) {
      expect(services()[name].depends_on, name).toEqual({
        redis: { condition: "service_healthy" },
        qdrant: { condition: "service_healthy" }
      })
    }
  })

  check("the worker scales (no host port, no fixed container name) and has time to finish its jobs on SIGTERM", () => {
    const worker = services().worker
    expect(worker.command).toEqual(["npm", "run", "serve:worker"])
    expect(worker.ports ?? []).toEqual([])
    expect(worker.container_name).toBeUndefined()
    expect(seconds(worker.stop_grace_period)).toBeGreaterThanOrEqual(30)
  })
})
