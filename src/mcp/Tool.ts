import { type Effect, JSONSchema, type Schema, SchemaAST } from "effect"
import type { Principal } from "../services/auth/Auth.js"

/** A tool failure the agent should see as an `isError` result (not a protocol error). */
export interface ToolFailure {
  readonly message: string
  /** The arguments broke a rule: answered as JSON-RPC -32602 naming the field, not as a tool result. */
  readonly invalidParams?: boolean
}

/**
 * One MCP tool, typed by Effect Schemas: the input is decoded at the edge with the same
 * schema the REST endpoint uses, the output is encoded to its wire form, and both are
 * published as JSON Schema through tools/list.
 */
export interface Tool<A = any, I = any, O = any, OI = any, R = any> {
  readonly name: string
  readonly title: string
  readonly description: string
  /** "read": a read-only token suffices; "site": Basic site credentials only. */
  readonly scope: "read" | "site"
  readonly input: Schema.Schema<A, I, never>
  readonly output: Schema.Schema<O, OI, never>
  readonly run: (principal: Principal, input: A) => Effect.Effect<O, ToolFailure, R>
}

export const defineTool = <A, I, O, OI, R>(tool: Tool<A, I, O, OI, R>): Tool<A, I, O, OI, R> => tool

/** MCP wants an object schema at the root; Effect puts identified schemas under $defs. */
export const toolJsonSchema = (schema: Schema.Schema<any, any, never>): Record<string, unknown> => {
  // Effect renders an empty struct as "any object or array"; a tool without arguments takes {}.
  if (SchemaAST.isTypeLiteral(schema.ast) && schema.ast.propertySignatures.length === 0 && schema.ast.indexSignatures.length === 0) {
    return { type: "object", properties: {}, additionalProperties: false }
  }
  const json = withoutIds(JSONSchema.make(schema)) as Record<string, any>
  const { $schema: _ignored, ...rest } = json
  const ref = typeof rest.$ref === "string" ? rest.$ref.replace("#/$defs/", "") : undefined
  if (ref === undefined) return rest
  const { [ref]: root, ...otherDefs } = rest.$defs as Record<string, Record<string, unknown>>
  return Object.keys(otherDefs).length > 0 || JSON.stringify(root).includes(`#/$defs/${ref}`)
    ? { ...root, $defs: rest.$defs }
    : root
}

/** Effect tags `unknown`/`any` with a fixed $id; repeated, those ids make JSON Schema validators refuse the document. */
const withoutIds = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutIds)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) if (!(k === "$id" && typeof v === "string" && v.startsWith("/schemas/"))) out[k] = withoutIds(v)
  return out
}
