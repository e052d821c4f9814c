// Compiler API that newer TypeScript versions added, asked in a way every compiler tug drives (4.0 and later, load.ts)
// answers: a project's own older `typescript` (supermacro/neverthrow pins 4.7) has no getModifiers (4.8),
// isSatisfiesExpression (4.9) or isClassStaticBlockDeclaration (4.4), and calling them crashed move-symbol and
// change-signature there; and the compiler's own assertion failures in its refactors, answered as refusals.
import type * as TS from 'typescript';
import { TugError } from '../core/errors.js';
import type { TypeScriptModule } from './load.js';

/** Before 4.8 a node's modifiers and decorators were two fields; since, `modifiers` holds both and getters split them. */
type Before48 = { modifiers?: readonly TS.Node[]; decorators?: readonly TS.Decorator[] };

/** The node's modifiers (`export`, `default`, `static`, …), decorators left out. */
export function modifiersOf(ts: TypeScriptModule, node: TS.Node): readonly TS.Modifier[] {
  if (typeof ts.getModifiers === 'function') return ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : [];
  return ((node as unknown as Before48).modifiers ?? []).filter((m) => m.kind !== ts.SyntaxKind.Decorator) as TS.Modifier[];
}

/** The node's decorators. */
export function decoratorsOf(ts: TypeScriptModule, node: TS.Node): readonly TS.Decorator[] {
  if (typeof ts.getDecorators === 'function') return ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [];
  return (node as unknown as Before48).decorators ?? [];
}

/** `expr satisfies T` (4.9): no compiler before it parses one. */
export function isSatisfies(ts: TypeScriptModule, node: TS.Node): node is TS.SatisfiesExpression {
  return typeof ts.isSatisfiesExpression === 'function' && ts.isSatisfiesExpression(node);
}

/** `static { … }` in a class (4.4). */
export function isStaticBlock(ts: TypeScriptModule, node: TS.Node): node is TS.ClassStaticBlockDeclaration {
  return typeof ts.isClassStaticBlockDeclaration === 'function' && ts.isClassStaticBlockDeclaration(node);
}

/** `{@link name}` in JSDoc (4.1). */
export function isJsDocLink(ts: TypeScriptModule, node: TS.Node): boolean {
  return typeof ts.isJSDocLink === 'function' && ts.isJSDocLink(node);
}

/**
 * A call into the language service's refactors that a compiler's own assertion can end ("Debug Failure. False
 * expression." from TypeScript 4.7's Extract Symbol on a `return` inside a generator, neverthrow): that is the
 * compiler refusing, not a bug in tug, so it becomes UnsupportedByAdapter naming the compiler and what it was asked.
 */
export function serviceCall<T>(ts: TypeScriptModule, asked: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!/^Debug Failure\b/.test(message)) throw error;
    throw new TugError('UnsupportedByAdapter', `the TypeScript ${ts.version} language service failed on ${asked}: ${message.split('\n')[0]}`, {
      details: { reason: 'language service failure', typescript: ts.version, message: message.split('\n')[0] },
    });
  }
}
