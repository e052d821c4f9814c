// What a Python rename plan holds: the symbol, its references, the edits and what could not be proven.
import type { EditRequest, FileMove } from '../core/patchset.js';
import type { WarningJSON } from '../core/schemas.js';
import type { Entity } from './project.js';
import type { UnsureJSON } from './unsure.js';

export interface RenameTarget {
  file: string;
  line: number;
  col: number;
}

export interface SymbolJSON {
  id: string;
  name: string;
  kind: string;
  location: { file: string; line: number; col: number; byte_start: number; byte_end: number };
}

export interface ReferenceJSON {
  location: { file: string; line: number; col: number; byte_start: number; byte_end: number };
  kind: 'definition' | 'call' | 'reference' | 'import' | 'attribute';
}

export interface RenamePlan {
  /** Files that move: a module file, or every file of a package directory. */
  moves: FileMove[];
  symbol: SymbolJSON;
  references: ReferenceJSON[];
  edits: EditRequest[];
  warnings: WarningJSON[];
  oldName: string;
  filesParsed: number;
  /** Places that may name the symbol but could not be proven to (left alone unless includeUnsure). */
  unsure: UnsureJSON[];
}

/** A plan before doctests and the completeness check: also the symbol and its stub twins, as the resolver knows them. */
export type CorePlan = RenamePlan & { entities: Entity[] };
