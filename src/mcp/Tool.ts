import { Effect, JSONSchema, Schema, SchemaAST } from "effect"
import type { Principal } from "../services/auth/Auth.js"
import { describeParseError } from "../domain/IssueMessage.js"
import type { ToolFailure } from "./ToolFailure.js"

/**
 * One MCP tool as written, typed by Effect Schemas: the input is decoded at the edge with the
 * same schema the REST endpoint uses, the output is encoded to its wire form, and both are
 * published as JSON Schema through tools/list. `R`: the services `run` needs.
 */
export interface ToolDefinition<A, I, O, OI, R> {
  readonly name: string
  readonly title: string
  readonly description: string
  /** "read": a read-only token suffices; "site": Basic site credentials only. */
  readonly scope: "read" | "site"
  /**
   * What a call changes, for hosts deciding whether to ask first: nothing, or it only adds (never
   * overwrites or deletes).
   */
  readonly effect: "reads" | "appends"
  readonly input: Schema.Schema<A, I, never>
  readonly output: Schema.Schema<O, OI, never>
  readonly run: (principal: Principal, input: A) => Effect.Effect<O, ToolFailure, R>
}

/**
 * A tool as the server runs it: its schemas published, `call` decoding the raw arguments,
 * running and encoding the result. Only the services it needs remain in its type, so a list
 * of tools states everything the MCP endpoint must be given.
 */
export interface Tool<R> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly scope: "read" | "site"
  readonly effect: "reads" | "appends"
  readonly inputSchema: JsonObjectSchema
  readonly outputSchema: JsonObjectSchema
  /** Fails with `invalidParams` when the arguments do not decode. */
  readonly call: (principal: Principal, args: unknown) => Effect.Effect<unknown, ToolFailure, R>
}

/** The services a tool (or a union of tools) needs. */
export type ToolServices<T> = T extends Tool<infer R> ? R : never

export type JsonObjectSchema = { readonly type: "object" } & Record<string, unknown>

export const defineTool = <A, I, O, OI, R>(tool: ToolDefinition<A, I, O, OI, R>): Tool<R> => {
  const decode = Schema.decodeUnknown(tool.input, { errors: "all", onExcessProperty: "error" })
  const encode = Schema.encode(tool.output)
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    scope: tool.scope,
    effect: tool.effect,
    inputSchema: toolJsonSchema(tool.input),
    outputSchema: toolJsonSchema(tool.output),
    call: (principal, args) =>
      decode(args).pipe(
        Effect.mapError(
          (error): ToolFailure => ({ message: describeParseError(error, "arguments"), invalidParams: true })
        ),
        Effect.flatMap((input) => tool.run(principal, input)),
        // An output the schema refuses is our defect, reported to the agent as a failed call.
        Effect.flatMap((output) =>
          Effect.mapError(encode(output), (error): ToolFailure => ({ message: error.message }))
        )
      )
  }
}

/** MCP wants an object schema at the root; Effect puts identified schemas under $defs. */
export const toolJsonSchema = <A, I>(schema: Schema.Schema<A, I, never>): JsonObjectSchema => {
  // Effect renders an empty struct as "any object or array"; a tool without arguments takes {}.
  if (
    SchemaAST.isTypeLiteral(schema.ast) &&
    schema.ast.propertySignatures.length === 0 &&
    schema.ast.indexSignatures.length === 0
  ) {
    return { type: "object", properties: {}, additionalProperties: false }
  }
  const json = published(JSONSchema.make(schema)) as Record<string, unknown>
  const { $schema: _ignored, ...union } = json
  // MCP wants `type: "object"` at the root; a union of object shapes (full or compact results) says
  // so beside its anyOf.
  const rest = Array.isArray(union.anyOf) && union.type === undefined ? { type: "object", ...union } : union
  const ref = typeof rest.$ref === "string" ? rest.$ref.replace("#/$defs/", "") : undefined
  if (ref === undefined) return rest as JsonObjectSchema
  const { [ref]: root, ...otherDefs } = rest.$defs as Record<string, Record<string, unknown>>
  // The root is inlined: its own entry stays under $defs only when it refers to itself.
  if (JSON.stringify(root).includes(`#/$defs/${ref}`))
    return { ...root, $defs: rest.$defs } as unknown as JsonObjectSchema
  return (Object.keys(otherDefs).length > 0 ? { ...root, $defs: otherDefs } : root) as JsonObjectSchema
}

/**
 * Titles Effect derives from a refinement ("maxLength(200)") or a type ("unknown"): constraints the
 * schema states anyway.
 */
const GENERATED_TITLE = /^(?:[A-Za-z]+\(.*\)|unknown|any)$/
/**
 * Descriptions Effect writes for its built-in refinements ("a string at most 200 character(s)
 * long"); ours start with a capital.
 */
const GENERATED_DESCRIPTION =
  /^an? (?:string|array|number|integer|non[- ]?empty|positive|negative|non-negative|finite|valid|date|bigint)\b/

/**
 * The schema as agents read it (every token of tools/list lands in their context): without
 * Effect's generated titles and descriptions, which restate the constraints beside them, and
 * without Effect's fixed $id on `unknown`/`any` (repeated, those ids make JSON Schema
 * validators refuse the document).
 */
const published = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(published)
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (k === "$id" && typeof v === "string" && v.startsWith("/schemas/")) continue
    if (k === "title" && typeof v === "string" && GENERATED_TITLE.test(v)) continue
    if (k === "description" && typeof v === "string" && GENERATED_DESCRIPTION.test(v)) continue
    out[k] = published(v)
  }
  return out
}
