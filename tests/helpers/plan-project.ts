// A src-layout Python package with its own pytest suite, and a ten-step plan over it (renames, a move, a
// change-signature, an organize-imports): what tests/plan.test.ts and the plan benchmark (tests/bench/plan.mjs) run.

const lines = (...text: string[]) => `${text.join('\n')}\n`;

/** Enough parametrized cases that running the suite costs what a small real project's suite does (~1 s). */
const CASES = Array.from({ length: 60 }, (_, i) => `    (${i}, ${i * 100}),`);

/** pytest's addopts line the test projects share: block the plugins a Python install often auto-loads (hypothesis,
 * pytest-benchmark; none is used here, together they cost a second of every run's start, and blocking an absent one is harmless). */
export const PYTEST_NO_PLUGINS = 'addopts = "-p no:hypothesispytest -p no:benchmark"';

export const PLAN_PROJECT: Record<string, string> = {
  'pyproject.toml': lines('[project]', 'name = "ledger"', 'version = "0.1.0"', '', '[tool.pytest.ini_options]', 'pythonpath = ["src"]', 'testpaths = ["tests"]', PYTEST_NO_PLUGINS),
  'src/ledger/__init__.py': lines('"""A small ledger."""', 'from ledger.accounts import Account', 'from ledger.money import to_cents', '', '__all__ = ["Account", "to_cents"]'),
  'src/ledger/money.py': lines(
    '"""Amounts as integer cents."""',
    '',
    'ROUNDING = 2',
    '',
    '',
    'def to_cents(amount):',
    '    return int(round(amount * 100))',
    '',
    '',
    'def from_cents(cents):',
    '    return round(cents / 100, ROUNDING)',
  ),
  'src/ledger/accounts.py': lines(
    '"""Accounts with a balance in cents."""',
    'from ledger.money import from_cents, to_cents',
    '',
    '',
    'class Account:',
    '    def __init__(self, owner):',
    '        self.owner = owner',
    '        self.cents = 0',
    '',
    '    def deposit(self, amount):',
    '        self.cents += to_cents(amount)',
    '        return self',
    '',
    '    def balance(self):',
    '        return from_cents(self.cents)',
  ),
  'src/ledger/invoices.py': lines(
    '"""Invoices: lines of (description, amount)."""',
    'from ledger.money import from_cents, to_cents',
    '',
    '',
    'def invoice_total(lines, tax_rate=0.2):',
    '    cents = sum(to_cents(amount) for _, amount in lines)',
    '    return from_cents(int(round(cents * (1 + tax_rate))))',
  ),
  'src/ledger/reports.py': lines(
    '"""Text reports."""',
    'from ledger.invoices import invoice_total',
    '',
    '',
    'def format_amount(amount):',
    '    return f"{amount:.2f}"',
    '',
    '',
    'def invoice_report(lines):',
    '    return f"total {format_amount(invoice_total(lines))}"',
  ),
  'src/ledger/tools.py': lines('"""Odds and ends, imports out of order."""', 'import sys', 'import os', 'import json', '', '', 'def describe():', '    return json.dumps({"sep": os.sep, "argv0": bool(sys.argv)})'),
  'tests/test_money.py': lines(
    'import pytest',
    '',
    'from ledger.money import from_cents, to_cents',
    '',
    '',
    '@pytest.mark.parametrize("amount, cents", [',
    ...CASES,
    '])',
    'def test_round_trip(amount, cents):',
    '    assert to_cents(amount) == cents',
    '    assert from_cents(cents) == amount',
  ),
  'tests/test_accounts.py': lines('from ledger import Account', '', '', 'def test_deposit():', '    assert Account("ann").deposit(1.5).deposit(2).balance() == 3.5'),
  'tests/test_invoices.py': lines('from ledger.invoices import invoice_total', '', '', 'def test_total():', '    assert invoice_total([("tea", 10), ("cake", 5)]) == 18.0', '', '', 'def test_no_tax():', '    assert invoice_total([("tea", 10)], tax_rate=0) == 10.0'),
  'tests/test_reports.py': lines('from ledger.reports import format_amount, invoice_report', '', '', 'def test_report():', '    assert invoice_report([("tea", 10)]) == "total 12.00"', '', '', 'def test_format():', '    assert format_amount(2) == "2.00"'),
};

/** 1-based line and column of `word` in the first line of `file` that contains `prefix + word`. */
function at(file: string, prefix: string, word: string): { file: string; line: number; column: number } {
  const text = PLAN_PROJECT[file]!.split('\n');
  const line = text.findIndex((l) => l.includes(prefix + word));
  if (line < 0) throw new Error(`${prefix}${word} is not in ${file}`);
  return { file, line: line + 1, column: text[line]!.indexOf(prefix + word) + prefix.length + 1 };
}

/**
 * Ten steps, each pointing at where its target is on the tree the steps before it made: renames keep every line where
 * it was, and the move takes format_amount (by then render_amount) out of reports.py after the last step aimed there.
 */
export const PLAN_STEPS: Array<Record<string, unknown>> = [
  { operation: 'rename-symbol', ...at('src/ledger/money.py', 'def ', 'to_cents'), new_name: 'cents_of' },
  { operation: 'rename-symbol', ...at('src/ledger/money.py', 'def ', 'from_cents'), new_name: 'amount_of' },
  { operation: 'rename_symbol', ...at('src/ledger/money.py', '', 'ROUNDING'), new_name: 'DECIMALS' },
  { operation: 'rename-symbol', ...at('src/ledger/accounts.py', 'class ', 'Account'), new_name: 'LedgerAccount' },
  { operation: 'rename-symbol', ...at('src/ledger/accounts.py', 'def ', 'deposit'), new_name: 'credit' },
  { operation: 'rename-symbol', ...at('src/ledger/invoices.py', 'def ', 'invoice_total'), new_name: 'total_due' },
  { operation: 'rename-symbol', ...at('src/ledger/reports.py', 'def ', 'format_amount'), new_name: 'render_amount' },
  { operation: 'move_symbol', ...at('src/ledger/reports.py', 'def ', 'format_amount'), destination: 'ledger.formatting' },
  { operation: 'change-signature', ...at('src/ledger/invoices.py', 'def ', 'invoice_total'), new_params: [{ name: 'lines' }, { name: 'tax_rate' }, { name: 'discount', default: '0' }] },
  { operation: 'organize-imports', file: 'src/ledger/tools.py' },
];

/** The names the plan replaces: none of them is left as a word in src/ or tests/ after it. */
export const OLD_NAMES = ['to_cents', 'from_cents', 'ROUNDING', 'Account', 'deposit', 'invoice_total', 'format_amount'];
