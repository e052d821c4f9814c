// The per-file facts the Python worker extracts (see python-worker/), as TypeScript types; everything cross-file happens in TS.

export type Span = [number, number];

export type Expr =
  | { k: 'name'; name: string; ref?: number }
  | { k: 'attr'; value: Expr; attr: string; ref?: number }
  | { k: 'call'; func: Expr; args?: Expr[] }
  | { k: 'subscript'; value: Expr; slice: Expr[] }
  | { k: 'binop_or'; left: Expr; right: Expr }
  | { k: 'str'; value: string; span: Span }
  | { k: 'iter'; of: Expr }
  | { k: 'item'; of: Expr; index: number }
  | { k: 'const' }
  | { k: 'other' };

export type ScopeKind = 'module' | 'class' | 'function' | 'lambda' | 'comprehension';

export interface Scope {
  id: number;
  kind: ScopeKind;
  name: string | null;
  parent: number | null;
  span: Span;
}

export interface Binding {
  id: number;
  scope: number;
  name: string;
  kind: string;
  span: Span;
  line: number;
  col: number;
  symbol?: number;
  type_hint?: Expr | null;
  value?: Expr | null;
}

export type Resolution = { binding: number } | { global: string } | { builtin: string } | { unresolved: string };

export interface Reference {
  name: string;
  span: Span;
  line: number;
  col: number;
  scope: number;
  ctx: 'load' | 'store' | 'del';
  resolved: Resolution;
}

export interface Param {
  function_binding: number;
  scope: number;
  name: string;
  binding: number;
  kind: 'posonly' | 'normal' | 'vararg' | 'kwonly' | 'kwarg';
  index: number;
  has_default: boolean;
}

export interface ImportName {
  name: string;
  name_span: Span;
  asname: string | null;
  asname_span: Span | null;
  binding: number | null;
}

export interface ImportFact {
  kind: 'import' | 'from';
  module: string | null;
  level: number;
  star: boolean;
  line: number;
  col: number;
  span: Span;
  names: ImportName[];
  scope: number;
  /** Where the dotted module of `from <module> import …` is written (null when tug could not place it). */
  module_span?: Span | null;
}

export interface Attribute {
  attr: string;
  span: Span;
  line: number;
  col: number;
  ctx: 'load' | 'store' | 'del';
  receiver: Expr;
  scope: number;
  /** For a store (`self.x = v`, `self.x: T = v`): the annotation and the assigned value. */
  type_hint?: Expr | null;
  value?: Expr | null;
}

export interface Call {
  callee: Expr;
  span: Span;
  line: number;
  col: number;
  scope: number;
  /** Keyword names, including the literal string keys of a `**{...}` dict (marked `in_dict`). */
  keywords: Array<{ name: string; span: Span; in_dict?: boolean }>;
  /** The first `**mapping` argument whose keys the call does not spell out (`**{"a": x}` counts as keywords). */
  splat?: Span;
  /** Leading positional arguments, only for calls where they matter to resolution (`super`, `partial`). */
  args?: Expr[];
}

export interface ClassFact {
  binding: number;
  scope: number;
  bases: Expr[];
  /** `@dataclass`, `@attr.s`, …: a decorator may generate `__init__` from the fields (record-fields.ts). */
  decorators: Expr[];
}

export interface FunctionFact {
  binding: number;
  scope: number;
  is_method: boolean;
  decorators: Expr[];
  returns: Expr | null;
  /** What every return statement agrees on: `self`, a new `cls(...)`, the class itself, the first argument, a functools.wraps wrapper, or a nested decorator that keeps what it wraps. */
  gives?: 'self' | 'cls' | 'cls-object' | 'param' | 'wrapper' | 'factory';
  /** Without `gives`: the callee every return statement calls (`return Application(url, stream)`), a factory's class. */
  makes?: Expr;
}

export interface Dynamic {
  kind: string;
  line: number;
  col: number;
  span: Span;
  name_arg: string | null;
}

export interface Facts {
  scopes: Scope[];
  bindings: Binding[];
  references: Reference[];
  params: Param[];
  imports: ImportFact[];
  attributes: Attribute[];
  calls: Call[];
  classes: ClassFact[];
  functions: FunctionFact[];
  all: { span: Span; entries: Array<{ value: string; span: Span }> } | null;
  strings: Array<{ value: string; span: Span }>;
  comments: Array<{ span: Span; text: string }>;
  dynamic: Dynamic[];
}
