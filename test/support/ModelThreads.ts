import { fileURLToPath } from "node:url"
import { Worker, type WorkerOptions } from "node:worker_threads"

/** The worker-thread scripts of the model services, by service folder. */
const THREAD_SCRIPTS = {
  "text-embedder": "../../src/services/text-embedder/embedding-thread.cjs",
  "image-analyzer": "../../src/services/image-analyzer/image-model-thread.cjs"
} as const
export const workerScript = (service: keyof typeof THREAD_SCRIPTS) =>
  fileURLToPath(new URL(THREAD_SCRIPTS[service], import.meta.url))

/**
 * Real model threads, remembered so a test can check they are gone afterwards. `prelude(n)`
 * is code run before the real script in the n-th thread (0-based): a throw makes it fail to
 * load, a listener can kill it mid-request. `options` are the service's own thread options
 * (its workerData).
 */
export const recordingSpawner = (
  script: string,
  prelude: (n: number) => string = () => "",
  options: () => WorkerOptions = () => ({})
) => {
  const spawned: Array<Worker> = []
  const spawn = () => {
    const worker = new Worker(`${prelude(spawned.length)}\nrequire(${JSON.stringify(script)})`, {
      ...options(),
      eval: true,
      execArgv: []
    })
    spawned.push(worker)
    return worker
  }
  return { spawned, spawn }
}
