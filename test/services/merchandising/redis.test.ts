import { Layer } from "effect"
import { RedisMerchandisingStore } from "../../../src/services/merchandising/RedisMerchandisingStore.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { merchandisingStoreConformance } from "./conformance.js"

const redis = redisForThisFile()

merchandisingStoreConformance("redis", () =>
  RedisMerchandisingStore.layer(redis.url).pipe(Layer.provide(redis.flushed))
)
