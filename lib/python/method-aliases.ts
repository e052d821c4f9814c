// What a member that is not a `def` stands for when it is called: a method alias in the class body
// (`_irange_key = irange_key`) or a bound method stored on the instance (`self.irange_key = other.irange_key`). A
// parameter rename follows the keywords of such calls; where the stored value cannot be typed they are unsure, since
// they were missed without a word (issue 28 §2, sortedcontainers' SortedKeyList/SortedDict).
import type { ClassModel } from './classes.js';
import type { Expr } from './facts.js';
import type { TypeInference } from './inference.js';
import type { Entity, FileInfo, Project } from './project.js';

export interface AliasValue {
  info: FileInfo;
  expr: Expr;
  /** What the value resolved to, or null when tug cannot tell (an untyped receiver). */
  entity: Entity | null;
}

export class MethodAliases {
  constructor(
    private readonly project: Project,
    private readonly classes: ClassModel,
    private readonly types: TypeInference,
  ) {}

  /** The values a class member is assigned: in the class body, or on `self` in the class's methods. */
  valuesOf(entity: Entity): AliasValue[] {
    if (entity.kind !== 'class-member') return [];
    const owner = this.project.classScope(entity.module, entity.owner);
    if (!owner) return [];
    const { info, scope } = owner;
    const out: AliasValue[] = [];
    for (const binding of info.facts.bindings) {
      if (binding.scope !== scope.id || binding.name !== entity.name || !binding.value) continue;
      out.push({ info, expr: binding.value, entity: this.resolve(info, binding.value, binding.scope) });
    }
    for (const attr of info.facts.attributes) {
      if (attr.ctx !== 'store' || attr.attr !== entity.name || !attr.value || attr.receiver.k !== 'name') continue;
      const self = this.classes.selfClass(info, attr.receiver);
      if (self?.module !== entity.module || self.owner !== entity.owner) continue;
      out.push({ info, expr: attr.value, entity: this.resolve(info, attr.value, attr.scope) });
    }
    return out;
  }

  private resolve(info: FileInfo, expr: Expr, scope: number): Entity | null {
    if (expr.k !== 'name' && expr.k !== 'attr') return null;
    const direct = this.project.follow(this.project.entityOfExpr(info, expr));
    if (direct || expr.k !== 'attr') return direct;
    return this.types.memberOf(info, expr.value, expr.attr, scope);
  }
}

/** The dotted text's last name (`other.irange_key` → `irange_key`). */
export function aliasName(expr: Expr): string | null {
  return expr.k === 'name' ? expr.name : expr.k === 'attr' ? expr.attr : null;
}
