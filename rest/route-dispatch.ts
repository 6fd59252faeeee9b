/**
 * Finds the route of a request by its path and method, for the API's route table. A path without ids is
 * one Map lookup; a path with ids walks a tree of its segments, a fixed segment before an id (so
 * `/v1/users/me` wins over `/v1/users/{id}` for the methods both have). Each route's middleware is
 * composed once, at start.
 *
 * Why not @koa/router here: on every request it logged through `debug`, tried each route's regular
 * expression in turn, and built and composed a new middleware chain: about a tenth of what the cheapest
 * route cost (issue 25). The doors with few routes (hosted pages, sandboxes, demos) keep @koa/router.
 *
 * Matching follows what @koa/router did, so that no client sees a difference: one trailing slash is
 * ignored, an id is any non-empty segment (percent-decoded; left as sent when it does not decode), a GET
 * route answers HEAD too, and a path no route has, or a method the path does not take, goes on to the
 * next middleware (the sandboxes, then the 404/405 answer).
 */
import compose from 'koa-compose';
import type { Context, Middleware, Next } from 'koa';

interface Leaf {
  /** The route of each method: its composed middleware and the names of its ids, in path order. */
  methods: Map<string, { run: Middleware; paramNames: string[] }>;
}

interface Segment {
  fixed: Map<string, Segment>;
  /** The segment standing for an id, if some route has one here. */
  id?: Segment;
  leaf?: Leaf;
}

export interface RouteMatch {
  leaf: Leaf;
  /** The ids' values, in path order. */
  values: string[];
}

export class RouteDispatch {
  readonly #exact = new Map<string, Leaf>();
  readonly #tree: Segment = { fixed: new Map() };

  /** `path` as OpenAPI writes it: `/v1/offers/{offerId}`. */
  add(method: string, path: string, middleware: Middleware[]): void {
    const segments = path.split('/').slice(1);
    const paramNames = segments.filter(isId).map((segment) => segment.slice(1, -1));
    const leaf = paramNames.length === 0 ? this.#exactLeaf(path) : this.#treeLeaf(segments);
    if (leaf.methods.has(method)) throw new Error(`two routes for ${method} ${path}`);
    leaf.methods.set(method, { run: compose(middleware) as Middleware, paramNames });
  }

  /**
   * Every route of `path`, whatever the method: the one without ids first, then those with ids, fixed
   * segments before ids. (As @koa/router did, a method one of them lacks may be another's: `me` is also a
   * user id.)
   */
  matches(rawPath: string): RouteMatch[] {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const found: RouteMatch[] = [];
    const exact = this.#exact.get(path);
    if (exact) found.push({ leaf: exact, values: [] });
    walk(this.#tree, path.split('/'), 1, [], found);
    return found;
  }

  /** The methods `path` takes (HEAD with GET), for a 405's Allow; empty when no route has the path. */
  methodsOf(path: string): string[] {
    const methods = new Set(this.matches(path).flatMap((match) => [...match.leaf.methods.keys()]));
    // HEAD before GET, where @koa/router put it.
    if (!methods.has('GET')) return [...methods];
    methods.delete('HEAD');
    return ['HEAD', ...methods];
  }

  middleware(): Middleware {
    return (ctx: Context, next: Next) => {
      for (const { leaf, values } of this.matches(ctx.path)) {
        const route = leaf.methods.get(ctx.method) ?? (ctx.method === 'HEAD' ? leaf.methods.get('GET') : undefined);
        if (!route) continue;
        const params: Record<string, string> = {};
        route.paramNames.forEach((name, index) => (params[name] = decodeSegment(values[index] as string)));
        (ctx as unknown as { params: Record<string, string> }).params = params;
        (ctx.request as unknown as { params: Record<string, string> }).params = params;
        return route.run(ctx, next);
      }
      return next();
    };
  }

  #exactLeaf(path: string): Leaf {
    let leaf = this.#exact.get(path);
    if (!leaf) this.#exact.set(path, (leaf = { methods: new Map() }));
    return leaf;
  }

  #treeLeaf(segments: string[]): Leaf {
    let node = this.#tree;
    for (const segment of segments) {
      if (isId(segment)) node = node.id ??= { fixed: new Map() };
      else {
        let next = node.fixed.get(segment);
        if (!next) node.fixed.set(segment, (next = { fixed: new Map() }));
        node = next;
      }
    }
    return (node.leaf ??= { methods: new Map() });
  }
}

const isId = (segment: string) => segment.startsWith('{') && segment.endsWith('}');

/** Every leaf `segments[from..]` leads to from `node`, into `found`: a fixed segment's before an id's. */
function walk(node: Segment, segments: string[], from: number, values: string[], found: RouteMatch[]): void {
  if (from === segments.length) {
    if (node.leaf) found.push({ leaf: node.leaf, values: [...values] });
    return;
  }
  const segment = segments[from] as string;
  const fixed = node.fixed.get(segment);
  if (fixed) walk(fixed, segments, from + 1, values, found);
  if (node.id && segment !== '') {
    values.push(segment);
    walk(node.id, segments, from + 1, values, found);
    values.pop();
  }
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
