import { EmbeddedMerchandisingStore } from "../../../src/services/merchandising/EmbeddedMerchandisingStore.js"
import { onSqlite } from "../../support/SqliteLayer.js"
import { merchandisingStoreConformance } from "./conformance.js"

merchandisingStoreConformance("embedded", () => onSqlite(EmbeddedMerchandisingStore.layer, "commerce-merch-"))
