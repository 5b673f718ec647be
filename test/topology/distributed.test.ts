import { distributedTopologySuite } from "./DistributedSuite.js"

distributedTopologySuite("the index replicated in every process", () => ({}))
