/**
 * Checks every parsed request input (a JSON body, a form, path and query parameters) once, at the door,
 * before any schema, service or recursive walk sees it:
 *
 * - nesting: JSON.parse builds a value thousands of levels deep without complaint, but anything that
 *   walks it recursively afterwards (schemas, normalizers, JSON.stringify, PostgreSQL's jsonb parser)
 *   overflows its stack. No request of ours nests more than a dozen levels.
 * - text PostgreSQL cannot store: it refuses a NUL character in text and jsonb, and a lone UTF-16
 *   surrogate (JSON allows "\ud800"; jsonb does not, and a text parameter would silently become U+FFFD).
 *   Refused here wherever it sits, in a value or a key, so that no schema has to remember it.
 *
 * The walk is iterative: it must not overflow on the very input it is there to refuse.
 */
import { ValidationError, type FieldError } from './errors.js';

/** Levels of arrays and objects a request may nest. */
export const MAX_INPUT_DEPTH = 64;
/** Enough to say what is wrong without echoing a whole hostile body back. */
const MAX_REPORTED = 20;

// With the `u` flag a surrogate pair is one code point, so \p{Cs} matches only a lone surrogate.
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;
const NUL = '\u0000';

interface Node {
  value: unknown;
  key: string;
  parent: Node | undefined;
  depth: number;
}

/** What makes `value` unfit to go on, one entry per field (`prefix` names where it came from); empty when fine. */
export function inputProblems(value: unknown, prefix = ''): FieldError[] {
  const problems: FieldError[] = [];
  const pending: Node[] = [{ value, key: prefix, parent: undefined, depth: 0 }];
  while (pending.length > 0 && problems.length < MAX_REPORTED) {
    const node = pending.pop() as Node;
    if (typeof node.value === 'string') {
      if (!isStorableText(node.value)) problems.push(textProblem(node.value, pathOf(node)));
      continue;
    }
    if (typeof node.value !== 'object' || node.value === null) continue;
    if (node.depth >= MAX_INPUT_DEPTH) return [tooDeep(prefix)];
    // Reversed onto the stack, so that fields are reported in the order they came.
    const entries = Object.entries(node.value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index] as [string, unknown];
      const child: Node = { value: item, key, parent: node, depth: node.depth + 1 };
      if (!isStorableText(key)) problems.push(textProblem(key, pathOf(child)));
      pending.push(child);
    }
  }
  return problems;
}

/** Throws ValidationError when `value` is nested too deep or holds text PostgreSQL cannot store. */
export function checkInput(value: unknown, prefix = ''): void {
  const problems = inputProblems(value, prefix);
  if (problems.length > 0) throw new ValidationError(problems);
}

/** Text PostgreSQL can store: no NUL, no lone surrogate. */
export function isStorableText(text: string): boolean {
  return !text.includes(NUL) && !LONE_SURROGATE.test(text);
}

/** The rule `text` (known to be unstorable) breaks: a NUL first, as it is the likelier mistake. */
function textProblem(text: string, field: string): FieldError {
  if (text.includes(NUL)) return { field, rule: 'no_nul', message: `${field} must not contain NUL characters (\\u0000)` };
  return { field, rule: 'well_formed_text', message: `${field} must be well-formed Unicode: it holds half of a UTF-16 surrogate pair` };
}

function tooDeep(prefix: string): FieldError {
  const field = prefix || '(body)';
  return { field, rule: 'max_depth', message: `${field} nests arrays and objects more than ${MAX_INPUT_DEPTH} levels deep` };
}

/** The dotted path of a node; characters that cannot be shown are replaced, so the path itself is storable text. */
function pathOf(node: Node): string {
  const keys: string[] = [];
  for (let current: Node | undefined = node; current; current = current.parent) {
    if (current.key !== '') keys.push(current.key.replaceAll(NUL, '\ufffd').replace(LONE_SURROGATES, '\ufffd'));
  }
  return keys.reverse().join('.') || '(body)';
}
