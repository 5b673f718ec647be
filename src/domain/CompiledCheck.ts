import { Either, Option, type ParseResult, Schema, type SchemaAST as AST } from "effect"

/**
 * A schema's rules compiled into one plain predicate, for the decoders on the write path (a
 * bulk push decodes every line): Effect's interpreter spends most of its time and garbage on a
 * product line building the per-field unions' intermediate results that a valid line never
 * needs. The predicate answers only "valid as it is": the schema's own
 * refinement functions run on the same values, and whatever the predicate does not accept
 * (invalid input, an excess key the decoder would strip, a shape it does not know) is decoded
 * by the schema itself, so results and error messages stay Effect's.
 *
 * Only schemas whose decoded value is their input qualify (no transformations, declarations or
 * recursion); `compile` returns undefined for any other, and the caller keeps Effect's decoder.
 */
type Check = (value: unknown) => boolean

const PARSE_OPTIONS: AST.ParseOptions = { errors: "first" }

const compile = (ast: AST.AST): Check | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return (v) => typeof v === "string"
    case "NumberKeyword":
      return (v) => typeof v === "number"
    case "BooleanKeyword":
      return (v) => typeof v === "boolean"
    case "UnknownKeyword":
    case "AnyKeyword":
      return () => true
    case "UndefinedKeyword":
      return (v) => v === undefined
    case "Literal": {
      const literal = ast.literal
      return (v) => v === literal
    }
    case "Refinement": {
      const from = compile(ast.from)
      if (from === undefined) return undefined
      return (v) => from(v) && Option.isNone(ast.filter(v, PARSE_OPTIONS, ast))
    }
    case "Union": {
      const members = ast.types.map(compile)
      if (members.some((m) => m === undefined)) return undefined
      const checks = members as Array<Check>
      return (v) => checks.some((check) => check(v))
    }
    case "TupleType": {
      // Arrays only: no fixed elements, one rest element.
      if (ast.elements.length > 0 || ast.rest.length !== 1) return undefined
      const item = compile(ast.rest[0].type)
      if (item === undefined) return undefined
      return (v) => Array.isArray(v) && v.every(item)
    }
    case "TypeLiteral":
      return compileStruct(ast)
    default:
      return undefined
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

const compileStruct = (ast: AST.TypeLiteral): Check | undefined => {
  const fields: Array<{ readonly name: string; readonly optional: boolean; readonly check: Check }> = []
  for (const p of ast.propertySignatures) {
    const check = compile(p.type)
    if (check === undefined || typeof p.name !== "string") return undefined
    fields.push({ name: p.name, optional: p.isOptional, check })
  }
  const known = new Set(fields.map((f) => f.name))
  // One string-keyed index signature (a record) checks the other keys; without one, a key the
  // struct does not name is left to the decoder (which refuses or strips it).
  if (ast.indexSignatures.length > 1) return undefined
  let other: Check = () => false
  if (ast.indexSignatures.length === 1) {
    const signature = ast.indexSignatures[0]
    const value = compile(signature.type)
    if (signature.parameter._tag !== "StringKeyword" || value === undefined) return undefined
    other = value
  }
  return (v) => {
    if (!isRecord(v)) return false
    for (const field of fields) {
      if (Object.hasOwn(v, field.name)) {
        if (!field.check(v[field.name])) return false
      } else if (!field.optional) {
        return false
      }
    }
    for (const key in v) {
      if (!known.has(key) && !other(v[key])) return false
    }
    return true
  }
}

/**
 * `Schema.decodeUnknownEither(schema, options)` with the compiled predicate in front: a valid
 * input is its own decoded value, anything else goes to Effect.
 */
export const compiledDecoder = <A, I>(schema: Schema.Schema<A, I, never>, options?: AST.ParseOptions) => {
  const decode = Schema.decodeUnknownEither(schema, options)
  const check = compile(schema.ast)
  if (check === undefined) return decode
  return (value: unknown): Either.Either<A, ParseResult.ParseError> =>
    check(value) ? Either.right(value as A) : decode(value)
}

/** Whether `schema` compiles (its decoded values are its inputs); for tests. */
export const compiles = (schema: Schema.Schema.Any): boolean => compile(schema.ast) !== undefined
