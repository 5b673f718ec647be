import { InProcessJobQueue } from "../../src/services/job-queue/InProcessJobQueue.js"
import { jobQueueConformance } from "./conformance.js"

// Failed batches are logged and left to the reconcile pass, so the handler sees a job once.
jobQueueConformance("in-process", () => InProcessJobQueue(), { attempts: 1 })
jobQueueConformance("in-process, one job per batch", () => InProcessJobQueue({ batchSize: 1, concurrency: 4 }), { attempts: 1 })
