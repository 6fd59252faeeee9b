/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas. Schemas that carry
 * `.meta({ id })` become shared components; request schemas are rendered as input (defaults optional),
 * response schemas as output.
 */
import { z } from 'zod';
import { SCOPES } from '../core/scopes.js';
import { BEARER_ERROR_DESCRIPTIONS, ERROR_DESCRIPTIONS, ErrorResponse, OAuthErrorResponse, ValidationErrorResponse } from './envelopes.js';
import type { Route } from './route-table.js';
import type { UploadSpec } from './upload.js';

type JsonObject = Record<string, unknown>;

export interface OpenApiInfo {
  serverUrl: string;
  /** The authorization server's issuer URL (its authorization endpoint is the root). */
  authUrl: string;
  version: string;
}

export function buildOpenApiDocument(routes: Route[], info: OpenApiInfo): JsonObject {
  const components = new ComponentCollector();
  const paths: Record<string, Record<string, JsonObject>> = {};

  for (const route of routes.filter((candidate) => !candidate.hidden)) {
    const operation: JsonObject = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      security: security(route),
      parameters: [...parameters(route.params, 'path', components), ...parameters(route.query, 'query', components)],
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: components.schema(route.body, 'input') } } } }
        : {}),
      ...(route.upload ? { requestBody: uploadBody(route.upload) } : {}),
      responses: responses(route, components),
    };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Travel Partner API',
      version: info.version,
      description:
        'Partner REST API: flight providers, offers and bookings, traveler profiles and saved passengers. Errors use the standard envelope (`message`, `status_code`, `code`) or, for invalid input, the validation envelope (`fields`).',
    },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: components.all(),
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Your partner application API key.' },
        OAuth2: {
          type: 'oauth2',
          description: "The traveler's access token (RS256 JWT, 15 minutes), from the authorization-code flow with PKCE.",
          flows: {
            authorizationCode: {
              authorizationUrl: `${info.authUrl}/`,
              tokenUrl: `${info.authUrl}/v1/oauth/token`,
              refreshUrl: `${info.authUrl}/v1/oauth/token`,
              scopes: SCOPES,
            },
          },
        },
      },
    },
  };
}

/** Both schemes in one requirement object: a route needing the key and a token needs both at once. */
function security(route: Route): JsonObject[] {
  if (route.auth === 'api_key') return [{ ApiKey: [] }];
  if (route.auth === 'api_key_and_bearer') return [{ ApiKey: [], OAuth2: route.scope ? [route.scope] : [] }];
  return [];
}

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query', components: ComponentCollector): JsonObject[] {
  if (!schema) return [];
  const json = components.schema(schema, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: location,
      required: location === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function responses(route: Route, components: ComponentCollector): JsonObject {
  const result: JsonObject = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    result[status] = {
      description: spec.description,
      ...(spec.schema ? { content: { 'application/json': { schema: components.schema(spec.schema, 'output') } } } : {}),
    };
  }
  const errorStatuses = new Set<number>(route.errors ?? []);
  if (route.auth !== 'none') [401, 403, 429].forEach((status) => errorStatuses.add(status));
  if (route.body || route.query || route.params) errorStatuses.add(400);
  if (route.body || route.upload) [413, 415].forEach((status) => errorStatuses.add(status));
  errorStatuses.add(500);
  for (const status of [...errorStatuses].sort()) {
    // Invalid path parameters, queries and bodies all answer with the validation envelope.
    const envelope = status === 400 && (route.body || route.query || route.params) ? ValidationErrorResponse : ErrorResponse;
    const schemas: z.ZodType[] = [envelope];
    // Token failures answer in the OAuth envelope; key failures in the standard one.
    if (route.auth === 'api_key_and_bearer' && (status === 401 || status === 403)) schemas.push(OAuthErrorResponse);
    const schema = schemas.length === 1 ? components.schema(envelope, 'output') : { oneOf: schemas.map((s) => components.schema(s, 'output')) };
    result[status] = {
      description: route.auth === 'api_key_and_bearer' ? (BEARER_ERROR_DESCRIPTIONS[status] ?? ERROR_DESCRIPTIONS[status] ?? 'Error') : (ERROR_DESCRIPTIONS[status] ?? 'Error'),
      content: { 'application/json': { schema } },
    };
  }
  return result;
}

/** Converts zod schemas, hoisting every identified sub-schema into `components.schemas`. */
class ComponentCollector {
  readonly #schemas: Record<string, JsonObject> = {};

  schema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
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

  all(): Record<string, JsonObject> {
    return Object.fromEntries(Object.entries(this.#schemas).sort(([a], [b]) => a.localeCompare(b)));
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

/** A file upload: the raw file in one of its types, or a multipart form with it in its field. */
function uploadBody(spec: UploadSpec): JsonObject {
  const binary = { type: 'string', format: 'binary', description: `At most ${Math.round(spec.maxBytes / 1024 / 1024)} MiB.` };
  return {
    required: true,
    content: {
      ...Object.fromEntries(spec.types.map((type) => [type, { schema: binary }])),
      'multipart/form-data': { schema: { type: 'object', required: [spec.field], properties: { [spec.field]: binary } } },
    },
  };
}
