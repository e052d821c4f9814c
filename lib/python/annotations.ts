// Reading a type annotation as a class: plain and dotted names, Optional/unions/containers, forward-reference strings, Self.
import type { ClassModel, ClassRef } from './classes.js';
import type { Expr } from './facts.js';
import type { FileInfo, Project } from './project.js';

const MAX_DEPTH = 48;

/** `C`, `mod.C`, `Optional[C]`, `C | None`, `"C"`, `Self` → C. */
export function classOfAnnotation(project: Project, classes: ClassModel, info: FileInfo, expr: Expr, self: ClassRef | null, depth: number): ClassRef | null {
  if (depth > MAX_DEPTH) return null;
  switch (expr.k) {
    case 'name':
    case 'attr': {
      const entity = project.follow(project.entityOfExpr(info, expr));
      if (self && (lastName(expr) === 'Self' || (entity?.kind === 'external' && entity.name.endsWith('.Self')))) return self;
      return classes.classOfEntity(entity);
    }
    case 'subscript':
      for (const part of expr.slice) {
        const found = classOfAnnotation(project, classes, info, part, self, depth + 1);
        if (found) return found;
      }
      return null;
    case 'binop_or':
      return classOfAnnotation(project, classes, info, expr.left, self, depth + 1) ?? classOfAnnotation(project, classes, info, expr.right, self, depth + 1);
    case 'str': {
      // A forward reference such as "Circle | None" or "Optional[Node]": the first name that is a class.
      for (const word of expr.value.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
        if (word === 'Self' && self) return self;
        const binding = info.globals.get(word);
        const cls = binding ? classes.classOfEntity(project.follow(project.valueOfBinding(info, binding))) : null;
        if (cls) return cls;
      }
      return null;
    }
    default:
      return null;
  }
}

/** The last name of a decorator or annotation: `functools.cached_property` → cached_property. */
export function lastName(expr: Expr): string {
  const target = expr.k === 'call' ? expr.func : expr;
  return target.k === 'name' ? target.name : target.k === 'attr' ? target.attr : '';
}
