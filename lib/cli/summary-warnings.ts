// Warnings as a person reads them on a terminal: grouped by kind with counts and locations, the ones that concern the
// renamed symbol first, so one warning that matters is not lost among many generic ones (issue 34 §5). JSON keeps them all.

type Json = Record<string, any>;

/** Notes about comments and strings that name the symbol: informative, listed after everything else. */
const MENTIONS = new Set(['CommentMention', 'CommentRenamed', 'StringMention', 'StringRenamed', 'DottedPathRenamed']);

/** Locations shown per group before `… and N more`, and how many share a line. */
const SHOWN = 12;
const PER_LINE = 4;

const where = (l: Json | undefined) => (l ? `${l.file}:${l.line}:${l.col}` : '');

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** 0: concerns the symbol (names it), 1: anything else, 2: a comment or string mention. */
function rank(warning: Json, symbol: RegExp | null): number {
  if (MENTIONS.has(warning['code'])) return 2;
  if (symbol && (symbol.test(String(warning['message'])) || symbol.test(JSON.stringify(warning['details'] ?? {})))) return 0;
  return 1;
}

interface Group {
  code: string;
  message: string;
  suggestion: string | undefined;
  rank: number;
  members: Json[];
}

/**
 * One line per warning that stands alone (as before: `warning[Code] file:line:col: message`); warnings of one kind with
 * the same message become one line with their count and their locations beneath, a few per line.
 */
export function groupedWarningLines(warnings: Json[] | undefined, symbolName?: string, indent = '  '): string[] {
  const list = warnings ?? [];
  if (list.length === 0) return [];
  const symbol = symbolName && /^\w+$/.test(symbolName) ? new RegExp(`\\b${escapeRegExp(symbolName)}\\b`) : null;
  const groups = new Map<string, Group>();
  for (const warning of list) {
    const key = `${warning['code']}\0${warning['message']}`;
    let group = groups.get(key);
    if (!group) {
      group = { code: warning['code'], message: warning['message'], suggestion: warning['suggestion'], rank: rank(warning, symbol), members: [] };
      groups.set(key, group);
    }
    group.members.push(warning);
  }
  // Kinds stay together: a kind's place is that of its most important group; inside it, the important groups first.
  const kindRank = new Map<string, number>();
  for (const group of groups.values()) kindRank.set(group.code, Math.min(kindRank.get(group.code) ?? 3, group.rank));
  const kindOrder = [...new Set([...groups.values()].map((g) => g.code))];
  const ordered = [...groups.values()].sort(
    (a, b) => kindRank.get(a.code)! - kindRank.get(b.code)! || kindOrder.indexOf(a.code) - kindOrder.indexOf(b.code) || a.rank - b.rank,
  );
  const lines: string[] = [];
  for (const group of ordered) {
    const suggestion = group.suggestion ? ` (${group.suggestion})` : '';
    if (group.members.length === 1) {
      const location = group.members[0]!['location'];
      lines.push(`${indent}warning[${group.code}]${location ? ` ${where(location)}` : ''}: ${group.message}${suggestion}`);
      continue;
    }
    lines.push(`${indent}warning[${group.code}] ${group.members.length} places: ${group.message}${suggestion}`);
    const locations = group.members.map((w) => where(w['location'])).filter(Boolean);
    for (let i = 0; i < Math.min(locations.length, SHOWN); i += PER_LINE) lines.push(`${indent}  ${locations.slice(i, Math.min(i + PER_LINE, SHOWN)).join('  ')}`);
    if (locations.length > SHOWN) lines.push(`${indent}  … and ${locations.length - SHOWN} more (warnings in --json)`);
  }
  return lines;
}
