/**
 * zod schemas as the OpenAPI document's JSON Schema. Every schema that carries `.meta({ id })` becomes a
 * shared component; request schemas are rendered as input (defaults optional), response schemas as
 * output. On the way:
 * - each `.meta({ examples })` is checked against its own schema, so an example cannot drift from the
 *   schema it illustrates (a wrong one fails the document, and so the tests, not a partner);
 * - zod's stand-in bounds for integers (±2^53−1) are left out: they say nothing, and reference pages
 *   show them as the example value.
 */
import { z } from 'zod';

export type JsonObject = Record<string, unknown>;

export class ComponentCollector {
  readonly #schemas: Record<string, JsonObject> = {};

  schema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', override: tidy }) as JsonObject;
    const { $schema: _, $defs = {}, ...root } = json as JsonObject & { $defs?: Record<string, JsonObject> };
    // The same id can render differently as input and as output: the second rendering gets its own name.
    const renames = new Map<string, string>();
    for (const [id, definition] of Object.entries($defs)) {
      const existing = this.#schemas[id];
      const conflicts = existing && !sameJson(existing, rewriteRefs(definition, new Map()));
      renames.set(id, conflicts ? `${id}${io === 'input' ? 'Input' : 'Output'}` : id);
    }
    for (const [id, definition] of Object.entries($defs)) {
      this.#schemas[renames.get(id) as string] = rewriteRefs(definition, renames) as JsonObject;
    }
    return rewriteRefs(root, renames) as JsonObject;
  }

  /**
   * The example a rendered schema gives: its own, its component's, or, for a list, a list of its item's.
   * Undefined when it has none.
   */
  exampleOf(json: JsonObject): unknown {
    if (Array.isArray(json.examples) && json.examples.length > 0) return json.examples[0];
    if (json.example !== undefined) return json.example;
    if (typeof json.$ref === 'string') {
      const component = this.#schemas[json.$ref.slice('#/components/schemas/'.length)];
      return component ? this.exampleOf(component) : undefined;
    }
    if (json.type === 'array' && typeof json.items === 'object' && json.items !== null) {
      const item = this.exampleOf(json.items as JsonObject);
      return item === undefined ? undefined : [item];
    }
    return undefined;
  }

  all(): Record<string, JsonObject> {
    return Object.fromEntries(Object.entries(this.#schemas).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/**
 * Named examples, each kept once in `components.examples` and referenced: many routes give the same
 * error answer, and the document would otherwise repeat it for each.
 */
export class ExampleCollector {
  readonly #examples: Record<string, { summary: string; value: unknown }> = {};

  ref(name: string, example: { summary: string; value: unknown }): { $ref: string } {
    let key = name;
    for (let n = 2; this.#examples[key] && !sameJson(this.#examples[key], example); n++) key = `${name}_${n}`;
    this.#examples[key] = example;
    return { $ref: `#/components/examples/${key}` };
  }

  all(): Record<string, { summary: string; value: unknown }> {
    return Object.fromEntries(Object.entries(this.#examples).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** zod's `override` hook: runs once for every schema it renders, with the zod schema beside its JSON. */
function tidy(context: { zodSchema: unknown; jsonSchema: JsonObject }): void {
  const { jsonSchema } = context;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  const schema = context.zodSchema as z.ZodType;
  const examples = z.globalRegistry.get(schema)?.examples;
  if (!Array.isArray(examples)) return;
  for (const example of examples) {
    const result = schema.safeParse(example);
    if (!result.success) {
      const name = z.globalRegistry.get(schema)?.id ?? 'a schema';
      throw new Error(`The example of ${name} does not fit its schema: ${z.prettifyError(result.error)}`);
    }
  }
}

function rewriteRefs(value: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, renames));
  if (typeof value !== 'object' || value === null) return value;
  const result: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string' && item.startsWith('#/$defs/')) {
      const id = item.slice('#/$defs/'.length);
      result[key] = `#/components/schemas/${renames.get(id) ?? id}`;
    } else {
      result[key] = rewriteRefs(item, renames);
    }
  }
  return result;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
