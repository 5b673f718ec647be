import { Layer } from "effect"
import { Services } from "../src/App.js"
import { makeWorkspace } from "../test/support/Workspace.js"

/**
 * A throw-away workspace (test/support/Workspace.ts) and the real service layers on it; an
 * eval uses site A, whose default campaign returns 100 results a query, so recall@100
 * measures the service rather than the campaign's cap. `dispose` deletes it. Variables the
 * layers read (e.g. IMAGE_ALLOWED_CIDRS) must be set before the layer is built.
 */
export const makeEvalWorkspace = async (prefix: string, embedThreads: number) => {
  const workspace = await makeWorkspace({ prefix, campaigns: [{ id: 0, name: "default", resultsCount: 100 }] })
  return { ...workspace, siteId: workspace.siteA.site.id, layer: Services.pipe(Layer.provide(workspace.config({ embedThreads }))) }
}
