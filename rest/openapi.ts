/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas, plus the operations other
 * doors serve (the authorization server, the tool endpoint), which the composition root hands in as
 * documentation. Every body carries an example: the one its schema's `.meta({ examples })` gives, put
 * on the media type too, where every tool (reference pages, Postman, client generators) looks for it.
 */
import type { z } from 'zod';
import { ERROR_DOCS_PATH } from '../core/error-catalog.js';
import { SCOPES } from '../core/scopes.js';
import { routeErrors } from './openapi-errors.js';
import { ComponentCollector, ExampleCollector, type JsonObject } from './openapi-schemas.js';
import type { DocumentedOperation, NamedExample, ResponseSpec, Route } from './route-table.js';
import type { UploadSpec } from './upload.js';

export interface OpenApiInfo {
  serverUrl: string;
  /** The authorization server's issuer URL (its authorization endpoint is the root). */
  authUrl: string;
  version: string;
}

export function buildOpenApiDocument(routes: Route[], info: OpenApiInfo, documented: DocumentedOperation[] = []): JsonObject {
  const components = new Components();
  const paths: Record<string, Record<string, JsonObject>> = {};
  const add = (path: string, method: string, operation: JsonObject) => ((paths[path] ??= {})[method.toLowerCase()] = operation);

  for (const route of routes.filter((candidate) => !candidate.hidden)) add(route.path, route.method, routeOperation(route, components, info.serverUrl));
  for (const operation of documented) add(operation.path, operation.method, documentedOperation(operation, components));

  return {
    openapi: '3.1.0',
    info: {
      title: 'Travel Partner API',
      version: info.version,
      description:
        'Partner REST API: flight providers, offers and bookings, traveler profiles and saved passengers; the OAuth 2.0 authorization server that signs travelers in; and the agent tool endpoint `/v1/mcp`. ' +
        'REST errors use the standard envelope (`message`, `status_code`, `code`) or, for invalid input, the validation envelope (`fields`); ' +
        `each also carries \`request_id\` (as in the \`X-Request-Id\` header) and \`doc_url\`, the code's section of the errors page [${info.serverUrl}${ERROR_DOCS_PATH}](${info.serverUrl}${ERROR_DOCS_PATH}). ` +
        'The authorization server answers in OAuth errors (`error`, `error_description`).',
    },
    servers: [{ url: info.serverUrl }],
    tags: TAGS,
    paths,
    components: { schemas: components.schemas.all(), examples: components.examples.all(), securitySchemes: securitySchemes(info) },
  };
}

/** The reference's sections, in the order a newcomer meets them. */
const TAGS = [
  { name: 'Flights', description: 'The flight providers and what each can do: read the capabilities to know which steps apply.' },
  { name: 'Offers', description: "A provider's offer handed over verbatim, then normalized: read it, price it, map its passengers, see its seats." },
  {
    name: 'Checkout',
    description:
      'The hosted checkout behind the checkout button: open a session for one of your offers (with the publishable key from your page, or your secret key from your backend), then confirm the sale from your backend with getCheckoutSession, never from browser messages alone.',
  },
  { name: 'Profile', description: "The signed-in traveler's profile, photo and contact change (`profile.read`, `profile.write`)." },
  { name: 'Passengers', description: 'Saved passengers and their identity documents (`passengers.read`, `passengers.write`).' },
  { name: 'Preferences', description: 'Locale, travel and security preferences (`preferences.read`, `preferences.write`).' },
  {
    name: 'Identity',
    description:
      'Airline identity recognition, for an airline’s backend with its confidential OAuth client (Basic credentials): resolve a recognized traveler into display claims, and link loyalty memberships. On any 404: delete the stored guid, re-recognize, retry once.',
  },
  { name: 'OAuth', description: 'Signing a traveler in: the token endpoint, dynamic registration for agents, revocation.' },
  { name: 'Discovery', description: 'Where the authorization server and its keys are, and which scopes each resource takes.' },
  { name: 'Agent tools', description: 'The MCP endpoint for AI agents, `/v1/mcp`.' },
  { name: 'Operations', description: 'Liveness and readiness probes.' },
];

/** What operations share in `components`: schemas and named examples. */
class Components {
  readonly schemas = new ComponentCollector();
  readonly examples = new ExampleCollector();
}

function routeOperation(route: Route, components: Components, serverUrl: string): JsonObject {
  const answers = { ...route.responses, ...routeErrors(route, serverUrl) };
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    security: security(route),
    parameters: [...parameters(route.params, 'path', components), ...parameters(route.query, 'query', components), ...parameters(route.headers, 'header', components)],
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': media(components.schemas.schema(route.body, 'input'), components) } } } : {}),
    ...(route.upload ? { requestBody: uploadBody(route.upload) } : {}),
    responses: Object.fromEntries(Object.entries(answers).map(([status, spec]) => [status, response(spec, components)])),
  };
}

function documentedOperation(operation: DocumentedOperation, components: Components): JsonObject {
  const headers = Object.entries(operation.headers ?? {}).map(([name, header]) => ({
    name,
    in: 'header',
    required: header.required,
    description: header.description,
    schema: { type: 'string' },
    example: header.example,
  }));
  const body = operation.body
    ? {
        requestBody: {
          required: true,
          content: Object.fromEntries(
            Object.entries(operation.body).map(([type, spec]) => [type, media(components.schemas.schema(spec.schema, 'input'), components, spec.examples)]),
          ),
        },
      }
    : {};
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    tags: operation.tags,
    security: operation.security,
    ...(headers.length > 0 ? { parameters: headers } : {}),
    ...body,
    responses: Object.fromEntries(Object.entries(operation.responses).map(([status, spec]) => [status, response(spec, components)])),
  };
}

/** A response: its description, the headers a client acts on, and its body with an example. */
function response(spec: ResponseSpec, components: Components): JsonObject {
  const headers = Object.entries(spec.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]);
  return {
    description: spec.description,
    ...(headers.length > 0 ? { headers: Object.fromEntries(headers) } : {}),
    ...(spec.schema ? { content: { [spec.contentType ?? 'application/json']: media(components.schemas.schema(spec.schema, 'output'), components, spec.examples) } } : {}),
  };
}

/** A media type: the schema and its example, or the named examples given instead. */
function media(schema: JsonObject, components: Components, examples?: Record<string, NamedExample>): JsonObject {
  if (examples) return { schema, examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, components.examples.ref(name, value)])) };
  const example = components.schemas.exampleOf(schema);
  return example === undefined ? { schema } : { schema, example };
}

/**
 * Both schemes in one requirement object: a route needing the key and a token needs both at once. The
 * browser session is another requirement beside them: either one will do.
 */
function security(route: Route): JsonObject[] {
  const partner = { ApiKey: [], OAuth2: route.scope ? [route.scope] : [] };
  const browser = { BrowserSession: [], CsrfToken: [] };
  switch (route.auth) {
    case 'none':
      return [];
    case 'api_key':
      return [{ ApiKey: [] }];
    case 'api_key_and_bearer':
      return [partner];
    case 'api_key_and_bearer_or_session':
      return [partner, browser];
    case 'session':
      return [browser];
    case 'client_basic':
      return [{ ClientBasic: [] }];
  }
}

function securitySchemes(info: OpenApiInfo): JsonObject {
  const flows = {
    authorizationCode: {
      authorizationUrl: `${info.authUrl}/`,
      tokenUrl: `${info.authUrl}/v1/oauth/token`,
      refreshUrl: `${info.authUrl}/v1/oauth/token`,
      scopes: SCOPES,
    },
  };
  return {
    ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Your partner application API key.' },
    OAuth2: {
      type: 'oauth2',
      description: `The traveler's access token (RS256 JWT, 15 minutes) for the REST API: its audience is ${info.serverUrl}, the default resource. From the authorization-code flow with PKCE.`,
      flows,
    },
    ToolEndpointOAuth2: {
      type: 'oauth2',
      description: `The traveler's access token for the agent tool endpoint: ask for it with \`resource=${info.serverUrl}/v1/mcp\` in the authorization request, so that its audience is the endpoint. A REST API token is refused there, and this one on the REST API.`,
      flows,
    },
    OAuthClient: {
      type: 'http',
      scheme: 'basic',
      description:
        'OAuth client authentication, `client_secret_basic`: Basic with `client_id` and `client_secret`. Or send both in the form (`client_secret_post`); a public client (`token_endpoint_auth_method: none`) sends `client_id` only, and PKCE proves it.',
    },
    ClientBasic: {
      type: 'http',
      scheme: 'basic',
      description:
        'The identity API (`/v1/identity/*`): your confidential OAuth client’s `client_id` and `client_secret` as Basic credentials (client_secret_basic), the ones your backend uses at the token endpoint. No `x-api-key`, no bearer token. Wrong or missing: 401 `invalid_client` with `WWW-Authenticate: Basic`; a public client, or one registered for client_secret_post: 400 `invalid_client`.',
    },
    BrowserSession: {
      type: 'apiKey',
      in: 'cookie',
      name: '_session',
      description:
        'The traveler’s own session in this browser, set by the hosted sign-in pages: what the card-capture component calls the payment routes with. Not for partners’ servers.',
    },
    CsrfToken: {
      type: 'apiKey',
      in: 'header',
      name: 'x-csrf-token',
      description: 'With the browser session, on every request that changes something: the `csrfToken` of `GET /v1/payments/tokenization-session`.',
    },
  };
}

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query' | 'header', components: Components): JsonObject[] {
  if (!schema) return [];
  const json = components.schemas.schema(schema, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    // On the parameter, the example is what reference pages put in the field to try the call with.
    const example = Array.isArray(rest.examples) ? rest.examples[0] : undefined;
    return {
      name,
      in: location,
      required: location === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
      ...(example !== undefined ? { example } : {}),
    };
  });
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
