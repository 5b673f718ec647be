import { Layer } from "effect"
import { ApiTopology } from "../src/topology/Topology.js"
import type { SettingValues } from "../test/support/Settings.js"
import { makeWorkspace } from "../test/support/Workspace.js"

/**
 * A throw-away workspace (test/support/Workspace.ts) and the real service layers on it; an
 * eval uses site A, whose default campaign returns 100 results a query, so recall@100
 * measures the service rather than the campaign's cap. `dispose` deletes it. Settings not
 * given here come from the environment, as for the service (e.g. QDRANT_URL, IMAGE_THREADS).
 */
export const makeEvalWorkspace = async (prefix: string, settings: SettingValues) => {
  const workspace = await makeWorkspace({ prefix, campaigns: [{ id: 0, name: "default", resultsCount: 100 }] })
  return {
    ...workspace,
    siteId: workspace.siteA.site.id,
    layer: ApiTopology.pipe(Layer.provide(workspace.config(settings, { overEnv: true })))
  }
}
