import { HttpServerResponse } from "@effect/platform"
import { Option, ParseResult, Schema, SchemaAST as AST } from "effect"

/**
 * A response schema's encoder compiled once from its AST, for the answers the service builds
 * itself (search results, recommendations). Effect's encoder interprets the schema on every
 * call and re-validates our own output on both sides of each transformation, which costs a page
 * of results with its facets far more than serialising it. This one walks only what changes a
 * value on the wire: struct keys (declared ones only, as Effect's default drops the rest),
 * property renames and optional-field rules, arrays, and the null/undefined members of nullable
 * fields. Refinements are not re-checked (the value is typed output, not input). Any other node
 * (a value transformation such as the Base64 category paths, a general union, a record) is
 * encoded by Effect's own encoder, so the result is always the schema's encoding.
 */
export const wireEncoder = <A, I>(schema: Schema.Schema<A, I, never>): ((value: A) => I) =>
  compile(schema.ast) as (value: A) => I

/** A handler's answer as the JSON response HttpApi would send for `schema` (200), encoded by `wireEncoder`. */
export const wireResponse = <A, I>(schema: Schema.Schema<A, I, never>) => {
  const encode = wireEncoder(schema)
  return (value: A): HttpServerResponse.HttpServerResponse => HttpServerResponse.unsafeJson(encode(value))
}

type Encode = (value: unknown) => unknown

const identity: Encode = (value) => value

const byEffect = (ast: AST.AST): Encode => ParseResult.encodeSync(Schema.make(ast)) as Encode

const compile = (ast: AST.AST): Encode => {
  switch (ast._tag) {
    case "Literal":
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "UndefinedKeyword":
    case "UnknownKeyword":
    case "AnyKeyword":
      return identity
    case "Refinement":
      return compile(ast.from)
    case "TupleType":
      return ast.elements.length === 0 && ast.rest.length === 1 ? arrayOf(compile(ast.rest[0].type)) : byEffect(ast)
    case "TypeLiteral":
      return ast.indexSignatures.length === 0 ? struct(ast) : byEffect(ast)
    case "Union":
      return union(ast)
    case "Transformation":
      return AST.isTypeLiteralTransformation(ast.transformation) && AST.isTypeLiteral(ast.to) && isTypeOnly(ast.to)
        ? renamed(ast.to, ast.transformation, compile(ast.from))
        : byEffect(ast)
    default:
      return byEffect(ast)
  }
}

const arrayOf =
  (element: Encode): Encode =>
  (value) =>
    (value as ReadonlyArray<unknown>).map(element)

const struct = (ast: AST.TypeLiteral): Encode => {
  const fields = ast.propertySignatures.map((ps) => [ps.name, compile(ps.type)] as const)
  return (value) => {
    const input = value as Record<PropertyKey, unknown>
    const output: Record<PropertyKey, unknown> = {}
    for (const [name, encode] of fields) if (Object.hasOwn(input, name)) output[name] = encode(input[name])
    return output
  }
}

/** A nullable field (one schema, null and undefined) or a union of literals; any other union goes to Effect. */
const union = (ast: AST.Union): Encode => {
  const others = ast.types.filter(
    (member) => !(AST.isUndefinedKeyword(member) || (AST.isLiteral(member) && member.literal === null))
  )
  if (others.every(AST.isLiteral)) return identity
  if (others.length !== 1) return byEffect(ast)
  const encode = compile(others[0])
  return (value) => (value === null || value === undefined ? value : encode(value))
}

/**
 * A struct whose fields are renamed or made optional (Schema.optionalWith, optionalToOptional): the
 * type side is data as is.
 */
const renamed = (to: AST.TypeLiteral, transformation: AST.TypeLiteralTransformation, encodeFrom: Encode): Encode => {
  const steps = transformation.propertySignatureTransformations
  const keys = to.propertySignatures.map((ps) => ps.name)
  return (value) => {
    // The type side's declared keys only, as Effect's encoder keeps.
    const input = value as Record<PropertyKey, unknown>
    const output: Record<PropertyKey, unknown> = {}
    for (const key of keys) if (Object.hasOwn(input, key)) output[key] = input[key]
    for (const step of steps) {
      const present = Object.hasOwn(output, step.to)
      const encoded = step.encode(present ? Option.some(output[step.to]) : Option.none())
      delete output[step.to]
      if (Option.isSome(encoded)) output[step.from] = encoded.value
    }
    return encodeFrom(output)
  }
}

/** Whether a type side holds no transformation, so encoding it only validates. */
const isTypeOnly = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "Transformation":
    case "Declaration":
    case "Suspend":
      return false
    case "Refinement":
      return isTypeOnly(ast.from)
    case "TupleType":
      return ast.elements.every((e) => isTypeOnly(e.type)) && ast.rest.every((r) => isTypeOnly(r.type))
    case "TypeLiteral":
      return (
        ast.propertySignatures.every((ps) => isTypeOnly(ps.type)) &&
        ast.indexSignatures.every((is) => isTypeOnly(is.type))
      )
    case "Union":
      return ast.types.every(isTypeOnly)
    default:
      return true
  }
}
