import { Context } from "effect"
import type { ColumnsUpdate, IndexDocument } from "../../model/IndexDocument.js"
import type { Job } from "../../model/Jobs.js"
import type { ShopperEvent } from "../../domain/ShopperEvents.js"

/**
 * What the api process (the leader) and its search replica say to each other over the IPC
 * channel of `child_process.fork` (V8 serialization: vectors travel as typed arrays). Both
 * ends are this codebase at the same version, started together: nothing here crosses a
 * network or a version boundary, so the shapes are types, not decoded schemas.
 */

/** One write to the leader's index, in the order it was applied there. */
export type IndexWrite =
  | { readonly _tag: "Upsert"; readonly docs: ReadonlyArray<IndexDocument> }
  | { readonly _tag: "Remove"; readonly siteId: number; readonly productIds: ReadonlyArray<string> }
  | { readonly _tag: "Columns"; readonly updates: ReadonlyArray<ColumnsUpdate> }

export type ToReplica =
  /**
   * Index writes applied from now on are sent: the replica may read the store. The requests
   * the replica does not answer itself go to the leader's internal listener at `port`, carrying
   * `secret` (see ReplicaServer.ts). Writes up to message `seq` are in the store the replica fills from.
   */
  | { readonly _tag: "Subscribed"; readonly port: number; readonly secret: string; readonly seq: number }
  /** A client's connection, its socket sent along: the replica serves it from now on. */
  | { readonly _tag: "Connection"; readonly id: number }
  /** Numbered from 1 in the order sent: the replica reports the last it applied. */
  | { readonly _tag: "IndexWrites"; readonly seq: number; readonly writes: ReadonlyArray<IndexWrite> }
  /** The answer to a numbered call (its type is the call's kind's). */
  | { readonly _tag: "Answered"; readonly call: number; readonly value: unknown }
  | { readonly _tag: "Failed"; readonly call: number; readonly message: string }

export type ToLeader =
  /** The replica's index is filled: it takes connections. */
  | { readonly _tag: "Ready" }
  /**
   * Which index writes a search arriving now must see: answered with the number of the last
   * message of writes the leader sent, after sending the writes it had applied but not sent yet.
   * `served` counts the requests the replica answered itself so far (for /metrics).
   */
  | { readonly _tag: "Current"; readonly call: number; readonly served: number }
  /** The replica holds the connection the leader handed over as `id`: the leader closes its copy. */
  | { readonly _tag: "Took"; readonly id: number }
  /** A connection the leader handed over was closed. */
  | { readonly _tag: "Closed" }
  | {
      readonly _tag: "ConsumeRate"
      readonly call: number
      readonly key: string
      readonly limit: number
      readonly windowMs: number
    }
  | { readonly _tag: "Enqueue"; readonly jobs: ReadonlyArray<Job> }
  | {
      readonly _tag: "AppendEvents"
      readonly call: number
      readonly siteId: number
      readonly events: ReadonlyArray<ShopperEvent>
      readonly receivedAt: number
    }
  /** The replica listens: index writes from now on reach it (its fill from the store starts after). */
  | { readonly _tag: "Subscribe" }
  | { readonly _tag: "Applied"; readonly seq: number }

/**
 * The script this process runs, provided by the entry point (main.ts): search replicas run it
 * too. Absent (an api embedded in a test), no replica can be forked.
 */
export class ProcessEntry extends Context.Tag("ProcessEntry")<ProcessEntry, string>() {}

/** The headers a replica's request to the leader's internal listener carries (see ReplicaServer.ts). */
export const HOP_SECRET_HEADER = "x-commerce-replica-secret"
export const HOP_PEER_HEADER = "x-commerce-replica-peer"
