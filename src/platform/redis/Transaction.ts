import type { ChainableCommander } from "ioredis"

/** MULTI/EXEC results without their per-command errors (the first one fails the whole call). */
export const execAll = async (tx: ChainableCommander): Promise<Array<unknown>> => {
  const replies = await tx.exec()
  if (replies === null) throw new Error("transaction aborted")
  return replies.map(([error, value]) => {
    if (error) throw error
    return value
  })
}
