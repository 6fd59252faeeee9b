/**
 * Every error code the source can answer with, found by reading the source (the TypeScript compiler's
 * syntax tree, no type checking): the test that holds the error catalog to the code base uses it, so a
 * new code without documentation fails CI. Where a code is found:
 * - the code argument of `new SomeError(...)` and `super(...)`, for DomainError, HttpProblem and every
 *   class that extends them (the argument's position is read from each constructor's `code` parameter);
 * - the default value of a constructor parameter named `code`;
 * - a `code: '...'` property of an object literal (error bodies, documented examples, JSON-RPC data),
 *   except in providers/, where such objects are outside systems' words.
 * The sandboxes (files named sandbox*.ts) speak outside systems' dialects and are left out, as are tests.
 * Each finding says, where the source does, the kind it is thrown with or the status it is answered with.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface FoundCode {
  code: string;
  /** `file:line` of the place it was found. */
  where: string;
  /** The domain error kind it is thrown with, where the source says (the REST door maps it to a status). */
  kind?: string;
  /** The HTTP status it is answered with, where the source says so itself (HttpProblem, an error body). */
  status?: number;
}

const CODE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** The roots of the class tree whose code argument the scanner follows, and where that argument sits. */
const ROOTS: Record<string, number> = { DomainError: 1, HttpProblem: 1 };

export function sourceFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], { cwd: root, encoding: 'utf8' });
  return listed
    .split('\n')
    .filter((file) => file !== '' && !file.startsWith('test/') && !file.startsWith('node_modules/') && !file.endsWith('.d.ts'))
    .filter((file) => !path.basename(file).startsWith('sandbox'))
    .filter((file) => fs.existsSync(path.join(root, file)));
}

export function findErrorCodes(root: string): FoundCode[] {
  const trees = sourceFiles(root).map((file) => ts.createSourceFile(file, fs.readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true));
  const classes = errorClasses(trees);
  const found: FoundCode[] = [];
  for (const tree of trees) {
    const at = (node: ts.Node) => `${tree.fileName}:${tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1}`;
    const visit = (node: ts.Node): void => {
      const call = errorConstruction(node, classes);
      const argument = call?.args[call.position];
      if (call && argument && ts.isStringLiteralLike(argument) && CODE.test(argument.text)) {
        found.push({ code: argument.text, where: at(argument), ...answeredAs(call, classes) });
      }
      if (ts.isParameter(node) && node.name.getText(tree) === 'code' && node.initializer && ts.isStringLiteralLike(node.initializer) && CODE.test(node.initializer.text)) {
        const owner = ancestor(node, ts.isClassDeclaration)?.name?.text;
        const kind = owner ? classes.get(owner)?.kind : undefined;
        found.push({ code: node.initializer.text, where: at(node), ...(kind ? { kind } : {}) });
      }
      if (ts.isPropertyAssignment(node) && propertyName(node) === 'code' && ts.isStringLiteralLike(node.initializer) && CODE.test(node.initializer.text) && !isZodIssue(node)) {
        if (!tree.fileName.startsWith('providers/')) {
          const status = statusBeside(node.parent);
          found.push({ code: node.initializer.text, where: at(node.initializer), ...(status ? { status } : {}) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return found;
}

interface ErrorClass {
  /** The index of the constructor's code argument; undefined when it takes none (the code is fixed). */
  position: number | undefined;
  /** The kind its instances carry, when fixed by the class. */
  kind?: string;
}

/**
 * The error classes: the roots, then every class that extends a known one, with the position of its
 * constructor's parameter named `code` (or, without a constructor, its parent's) and the kind its
 * `super(kind, code, ...)` call to DomainError fixes (or its parent's).
 */
function errorClasses(trees: ts.SourceFile[]): Map<string, ErrorClass> {
  const classes = new Map<string, ErrorClass>(Object.entries(ROOTS).map(([name, position]) => [name, { position }]));
  const declarations = trees.flatMap((tree) => collect(tree, ts.isClassDeclaration)).filter((declaration) => declaration.name);
  for (let changed = true; changed; ) {
    changed = false;
    for (const declaration of declarations) {
      const name = declaration.name!.text;
      const parentName = parentClass(declaration);
      const parent = parentName ? classes.get(parentName) : undefined;
      if (classes.has(name) || !parent) continue;
      const constructor = declaration.members.find(ts.isConstructorDeclaration);
      const index = constructor ? constructor.parameters.findIndex((parameter) => parameter.name.getText() === 'code') : parent.position;
      const superCall = constructor && collect(constructor, isSuperCall)[0];
      const fixedKind = parentName === 'DomainError' && superCall?.arguments[0] && ts.isStringLiteralLike(superCall.arguments[0]) ? superCall.arguments[0].text : undefined;
      const kind = fixedKind ?? parent.kind;
      classes.set(name, { position: index === -1 ? undefined : index, ...(kind ? { kind } : {}) });
      changed = true;
    }
  }
  return classes;
}

/** How a construction is answered: DomainError's literal kind, a class's fixed kind, HttpProblem's status. */
function answeredAs(call: Construction, classes: Map<string, ErrorClass>): Pick<FoundCode, 'kind' | 'status'> {
  const first = call.args[0];
  if (call.errorClass === 'HttpProblem') return first && ts.isNumericLiteral(first) ? { status: Number(first.text) } : {};
  if (call.errorClass === 'DomainError') return first && ts.isStringLiteralLike(first) ? { kind: first.text } : {};
  const kind = classes.get(call.errorClass)?.kind;
  return kind ? { kind } : {};
}

/**
 * The status an error body written in place says it is answered with: a `status` or `status_code`
 * beside the code, a numeric key it is filed under (a route's `errorExamples`), or the number passed just
 * before it (`answer(ctx, 429, {...})`).
 */
function statusBeside(body: ts.Node): number | undefined {
  if (!ts.isObjectLiteralExpression(body)) return undefined;
  for (const property of body.properties) {
    if (ts.isPropertyAssignment(property) && ['status', 'status_code'].includes(propertyName(property) ?? '') && ts.isNumericLiteral(property.initializer)) {
      return Number(property.initializer.text);
    }
  }
  const holder = body.parent;
  if (ts.isPropertyAssignment(holder) && ts.isNumericLiteral(holder.name)) return Number(holder.name.text);
  if (ts.isCallExpression(holder)) {
    const before = holder.arguments[holder.arguments.indexOf(body as ts.Expression) - 1];
    if (before && ts.isNumericLiteral(before)) return Number(before.text);
  }
  return undefined;
}

interface Construction {
  errorClass: string;
  args: readonly ts.Expression[];
  position: number;
}

/** `new Known(...)`, or `super(...)` in a class whose parent is known. */
function errorConstruction(node: ts.Node, classes: Map<string, ErrorClass>): Construction | undefined {
  let errorClass: string | undefined;
  if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) errorClass = node.expression.text;
  if (isSuperCall(node)) {
    const declaration = ancestor(node, ts.isClassDeclaration);
    errorClass = declaration ? parentClass(declaration) : undefined;
  }
  const position = errorClass === undefined ? undefined : classes.get(errorClass)?.position;
  if (errorClass === undefined || position === undefined) return undefined;
  return { errorClass, args: (node as ts.NewExpression | ts.CallExpression).arguments ?? [], position };
}

function isSuperCall(node: ts.Node): node is ts.CallExpression {
  return ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword;
}

function parentClass(declaration: ts.ClassDeclaration): string | undefined {
  const clause = declaration.heritageClauses?.find((heritage) => heritage.token === ts.SyntaxKind.ExtendsKeyword);
  const parent = clause?.types[0]?.expression;
  return parent && ts.isIdentifier(parent) ? parent.text : undefined;
}

function propertyName(node: ts.PropertyAssignment): string | undefined {
  return ts.isIdentifier(node.name) || ts.isStringLiteralLike(node.name) ? node.name.text : undefined;
}

/** A zod issue's `code` (zod's words, not ours): an object handed to `addIssue`, or returned as a `$ZodRawIssue`. */
function isZodIssue(node: ts.PropertyAssignment): boolean {
  const call = node.parent.parent;
  if (ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'addIssue') return true;
  const returned = ts.isReturnStatement(call) ? ancestor(call, ts.isFunctionDeclaration) : undefined;
  return returned?.type?.getText().includes('ZodRawIssue') ?? false;
}

function ancestor<T extends ts.Node>(node: ts.Node, test: (candidate: ts.Node) => candidate is T): T | undefined {
  for (let current = node.parent; current; current = current.parent) if (test(current)) return current;
  return undefined;
}

function collect<T extends ts.Node>(tree: ts.Node, test: (node: ts.Node) => node is T): T[] {
  const out: T[] = [];
  const visit = (node: ts.Node): void => {
    if (test(node)) out.push(node);
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return out;
}
