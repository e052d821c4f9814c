// Every rust-analyzer assist by its id: what is offered at a range (`tug assists`), and one of them resolved into plain
// edits (`tug run assist`), refused whole when its edit needs a person.
import type { CodeAction } from 'vscode-languageserver-protocol';
import { didYouMean } from '../core/did-you-mean.js';
import { TugError } from '../core/errors.js';
import { atAssistSite, idOf, type AssistPlan, type SiteInput } from './assists.js';
import { SnippetNeedsInput } from './snippets.js';
import type { ConvertedEdit } from './workspace-edit.js';
import type { RustAnalyzer } from './lsp-client.js';

export interface OfferedAssist {
  /** rust-analyzer's assist id; the second and later offers of one id at a place get `#2`, `#3`, … */
  id: string;
  label: string;
  /** The LSP code action kind (`refactor.rewrite`, `quickfix`, …). */
  kind: string;
  /** rust-analyzer's group, when it offers several variants of one assist (e.g. "Generate…"). */
  group?: string;
}

interface Offer {
  assist: OfferedAssist;
  action: CodeAction;
}

function offersOf(actions: readonly CodeAction[]): Offer[] {
  const seen = new Map<string, number>();
  const offers: Offer[] = [];
  for (const action of actions) {
    const base = idOf(action);
    if (base === '') continue;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const group = (action as CodeAction & { group?: string }).group;
    offers.push({ action, assist: { id: n === 1 ? base : `${base}#${n}`, label: action.title, kind: action.kind ?? '', ...(group ? { group } : {}) } });
  }
  // By id (then the offer's number), so the list reads the same whatever order rust-analyzer's relevance ranking gives.
  const key = (o: Offer) => idOf(o.action);
  const nth = (o: Offer) => Number(o.assist.id.split('#')[1] ?? 1);
  return offers.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : nth(a) - nth(b)));
}

export async function listRustAssists(input: SiteInput): Promise<OfferedAssist[]> {
  return atAssistSite(input, async ({ offered }) => offersOf(offered).map((o) => o.assist));
}

export interface CatalogPlan extends AssistPlan {
  creates: ConvertedEdit['creates'];
  /** The assist's id as listed. */
  id: string;
}

export async function planCatalogAssist(input: SiteInput & { id: string }): Promise<CatalogPlan> {
  return atAssistSite(input, async ({ server, where, offered, convert }) => {
    const offers = offersOf(offered);
    const chosen = offers.find((o) => o.assist.id === input.id);
    const location = { file: input.file, line: input.start.line, col: input.start.col };
    if (!chosen) {
      const ids = offers.map((o) => o.assist.id);
      const guess = didYouMean(input.id, ids);
      throw new TugError('InvalidArgument', `rust-analyzer offers no assist ${input.id} at ${where}${guess ? ` (did you mean ${guess}?)` : ''}; it offers: ${ids.join(', ') || 'none'}`, {
        details: { argument: 'id', reason: 'assist not offered here', offered: ids, ...(guess ? { did_you_mean: guess } : {}), location: where },
        location,
      });
    }
    const refuse = (why: string) =>
      new TugError('UnsupportedByAdapter', `${chosen.assist.id} at ${where} cannot be applied: ${why}`, {
        details: { operation: 'assist', assist: chosen.assist.id, reason: why, offered: [chosen.assist.id], location: where },
        location,
      });
    const resolved = chosen.action.edit ? chosen.action : await resolveOrRefuse(server, chosen.action, refuse);
    if (!resolved.edit) throw refuse(resolved.command ? `it needs input tug cannot give: rust-analyzer answers with the command ${resolved.command.command} instead of an edit` : 'rust-analyzer resolves it without an edit');
    let converted: ConvertedEdit;
    try {
      converted = convert(resolved.edit);
    } catch (error) {
      if (error instanceof SnippetNeedsInput) throw refuse(`it needs input tug cannot give: ${error.message}`);
      throw error;
    }
    if (converted.edits.length === 0 && converted.moves.length === 0 && converted.creates.length === 0) {
      throw new TugError('UnsupportedByAdapter', `${chosen.assist.id} at ${where} changes nothing`, { details: { operation: 'assist', assist: chosen.assist.id, offered: [chosen.assist.id], location: where }, location });
    }
    return { id: chosen.assist.id, title: resolved.title, edits: converted.edits, moves: converted.moves, creates: converted.creates, warnings: converted.warnings };
  });
}

/**
 * rust-analyzer answers some offers it cannot carry out with an LSP error (a panic while resolving, e.g.
 * destructure_struct_binding on a binding used as `p.x`): that assist is refused here, by name, not a tug bug.
 */
export async function resolveOrRefuse(server: RustAnalyzer, action: CodeAction, refuse: (why: string) => TugError): Promise<CodeAction> {
  try {
    return await server.request<CodeAction>('codeAction/resolve', action);
  } catch (error) {
    if (error instanceof TugError || typeof (error as { code?: unknown }).code !== 'number') throw error;
    throw refuse(`rust-analyzer could not resolve it (${String((error as Error).message).split('\n')[0]})`);
  }
}
