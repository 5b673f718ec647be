import { Layer } from "effect"
import { RedisShopperStats } from "../../../src/services/shopper-stats/RedisShopperStats.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { shopperStatsConformance } from "./conformance.js"

const redis = redisForThisFile()

shopperStatsConformance("redis", () => RedisShopperStats.layer(redis.url).pipe(Layer.provide(redis.flushed)))
