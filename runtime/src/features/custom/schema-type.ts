/**
 * `FromSchema<S>`: the type of the values a JSON Schema literal accepts (`type`, `properties`,
 * `required`, `items`, `enum`, `const`, `anyOf`/`oneOf`/`allOf`; `unknown` for the rest), so that
 * `defineTool` types a handler's arguments. A few types rather than a dependency of every server.
 */

/** A tool's input schema as a literal: an object schema whose `required` may be a readonly tuple. */
export interface InputSchemaLiteral {
  readonly type: "object";
  readonly properties?: { readonly [name: string]: unknown };
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

/** The type a JSON Schema literal accepts. */
export type FromSchema<S> = S extends true
  ? unknown
  : S extends false
    ? never
    : S extends { readonly const: infer C }
      ? C
      : S extends { readonly enum: readonly (infer E)[] }
        ? E
        : S extends { readonly anyOf: readonly (infer M)[] }
          ? FromSchema<M>
          : S extends { readonly oneOf: readonly (infer M)[] }
            ? FromSchema<M>
            : S extends { readonly allOf: readonly [infer First, ...infer Rest] }
              ? FromSchema<First> & FromSchema<{ readonly allOf: Rest }>
              : S extends { readonly allOf: readonly [] }
                ? unknown
                : S extends { readonly type: readonly (infer T)[] }
                  ? FromType<T, S>
                  : S extends { readonly type: infer T }
                    ? FromType<T, S>
                    : unknown;

/** The type of one JSON type name (distributes over a union of names). */
type FromType<T, S> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? FromSchema<I>[]
            : unknown[]
          : T extends "object"
            ? FromObject<S>
            : unknown;

/** The names an object schema requires. */
type RequiredNames<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/** An object schema's type: required properties, then optional ones; without `properties`, any object. */
type FromObject<S> = S extends { readonly properties: infer P }
  ? Flatten<
      { -readonly [K in keyof P as K extends RequiredNames<S> ? K : never]: FromSchema<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredNames<S> ? never : K]?: FromSchema<P[K]>;
      }
    >
  : Record<string, unknown>;

/** One object type instead of an intersection (readable in editor hovers). */
type Flatten<T> = { [K in keyof T]: T[K] } & {};
