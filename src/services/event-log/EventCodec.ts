import { Either } from "effect"
import { compiledDecoder } from "../../domain/CompiledCheck.js"
import { ShopperEvent } from "../../domain/ShopperEvents.js"

/*
 * How both backends store an event: its JSON as received (a decoded ShopperEvent has no
 * transformation, so its wire form is its stored form), checked again when read back.
 */
const decodeStored = compiledDecoder(ShopperEvent)

export const encodeEvent = (event: ShopperEvent): string => JSON.stringify(event)

/** A stored event from its JSON; throws (naming the field) when it is not one. */
export const decodeEvent = (json: string): ShopperEvent =>
  Either.getOrThrowWith(decodeStored(JSON.parse(json)), (e) => e)
