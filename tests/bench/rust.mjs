// Rust renames through rust-analyzer: cold process vs a warm daemon vs rust-analyzer alone, on the sound and mini_cli fixtures and a generated 120-module crate.
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { cachedRepo, median, ROOT, row, timed, TUG } from './lib.mjs';

const MODULES = 120;

function soundFixture() {
  return cachedRepo('rust-sound', (dir) => {
    cpSync(path.join(ROOT, 'fixtures', 'rust', 'sound'), dir, { recursive: true, filter: (src) => !/\/(target|Cargo\.lock)$/.test(src) });
  });
}

/** rust-analyzer alone answering the same rename from a fresh start (spawn, index, rename), in ms. */
function raAlone(repo, at, to, runs) {
  const [file, line, col] = at.split(':');
  const times = [];
  for (let i = 0; i < runs; i++) times.push(Number(timed('node', [path.join(ROOT, 'tests', 'bench', 'ra-alone.mjs'), repo, file, line, col, to]).stdout.trim()));
  return median(times);
}

function miniCli() {
  return cachedRepo('rust-mini-cli', (dir) => {
    cpSync(path.join(ROOT, 'fixtures', 'rust', 'mini_cli'), dir, { recursive: true, filter: (src) => !/\/(target|Cargo\.lock)$/.test(src) });
  });
}

/** A crate of MODULES modules; each defines a struct with methods and calls `core::shared_total` twice. */
function generatedCrate() {
  return cachedRepo(`rust-crate-${MODULES}`, (dir) => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'Cargo.toml'), '[package]\nname = "generated"\nversion = "0.1.0"\nedition = "2021"\n');
    const mods = Array.from({ length: MODULES }, (_, i) => `m${String(i).padStart(3, '0')}`);
    writeFileSync(path.join(dir, 'src', 'lib.rs'), `pub mod core;\n${mods.map((m) => `pub mod ${m};`).join('\n')}\n`);
    writeFileSync(path.join(dir, 'src', 'core.rs'), 'pub fn shared_total(values: &[u64]) -> u64 {\n    values.iter().sum()\n}\n');
    mods.forEach((m, i) => {
      const next = mods[(i + 1) % mods.length];
      writeFileSync(
        path.join(dir, 'src', `${m}.rs`),
        [
          'use crate::core::shared_total;',
          '',
          `pub struct Item${i} {`,
          '    pub values: Vec<u64>,',
          '}',
          '',
          `impl Item${i} {`,
          '    pub fn total(&self) -> u64 {',
          '        shared_total(&self.values)',
          '    }',
          '',
          '    pub fn doubled(&self) -> u64 {',
          `        crate::core::shared_total(&[self.total(), self.total()]) + crate::${next}::helper()`,
          '    }',
          '}',
          '',
          'pub fn helper() -> u64 {',
          `    ${i}`,
          '}',
          '',
        ].join('\n'),
      );
    });
  });
}

function tug(cwd, args, env = {}) {
  return timed(TUG, [...args], { cwd, env: { ...process.env, ...env } });
}

function subject(name, repo, at, to, runs) {
  const analyze = ['analyze-impact', 'rename-symbol', '--at', at, '--to', to];
  const rename = ['run', 'rename-symbol', '--at', at, '--to', to, '--verify', 'none'];
  const cold = { TUG_NO_DAEMON: '1' };
  const coldAnalyze = [];
  const coldRename = [];
  for (let i = 0; i < runs; i++) {
    coldAnalyze.push(tug(repo, analyze, cold).ms);
    coldRename.push(tug(repo, rename, cold).ms);
  }
  const edits = JSON.parse(tug(repo, rename, cold).stdout).summary.edits_count;
  const raOwn = raAlone(repo, at, to, runs);
  // The default path: the first call starts a daemon that indexes in the background; an agent's next call comes a
  // couple of seconds later (the pause is not timed).
  const auto = { TUG_DAEMON_AUTOSTART: '1' };
  tug(repo, ['daemon', 'stop'], auto);
  const firstCall = tug(repo, analyze, auto).ms;
  spawnSync('sleep', ['2']);
  const secondCall = tug(repo, analyze, auto).ms;
  tug(repo, ['daemon', 'stop'], auto);
  tug(repo, ['daemon', 'start']);
  try {
    tug(repo, analyze); // warms the daemon's rust-analyzer
    const warmAnalyze = [];
    const warmRename = [];
    const version = [];
    for (let i = 0; i < runs * 3; i++) {
      warmAnalyze.push(tug(repo, analyze).ms);
      warmRename.push(tug(repo, rename).ms);
      version.push(tug(repo, ['--version']).ms);
    }
    return {
      name,
      edits,
      coldAnalyze: median(coldAnalyze),
      coldRename: median(coldRename),
      warmAnalyze: median(warmAnalyze),
      warmRename: median(warmRename),
      version: median(version),
      firstCall,
      secondCall,
      raOwn,
    };
  } finally {
    tug(repo, ['daemon', 'stop']);
  }
}

export function rustBench(runs) {
  return [
    subject('sound fixture (5 files, field in std macros, doc tests)', soundFixture(), 'src/shapes.rs:12:9', 'start', runs),
    subject('mini_cli fixture (9 files)', miniCli(), 'src/store.rs:19:12', 'push_task', runs),
    subject(`generated crate (${MODULES + 2} files)`, generatedCrate(), 'src/core.rs:1:8', 'sum_all', runs),
  ];
}

export function rustReport(results) {
  const ms = (v) => `${Math.round(v)} ms`;
  return [
    '## Rust rename through rust-analyzer (cold process vs warm daemon)',
    '',
    '`tug run rename-symbol --verify none` and `tug analyze-impact rename-symbol`: cold = a new process that starts and indexes rust-analyzer (`TUG_NO_DAEMON=1`); warm = forwarded to `tug daemon`, whose rust-analyzer is already indexed; default = no daemon running, the first call starts one (it indexes in the background), the second comes 2 s after the first returned. Target of the issue: warm analyze-impact within 2× `tug --version`.',
    '',
    row(['subject', 'edits', 'cold analyze', 'cold rename', 'warm analyze', 'warm rename', '`tug --version`', 'warm analyze ÷ version', 'default: 1st analyze', 'default: 2nd, 2 s later', 'rust-analyzer alone, fresh', 'cold analyze ÷ RA alone']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...results.map((r) =>
      row([r.name, r.edits, ms(r.coldAnalyze), ms(r.coldRename), ms(r.warmAnalyze), ms(r.warmRename), ms(r.version), `${(r.warmAnalyze / r.version).toFixed(2)}×`, ms(r.firstCall), ms(r.secondCall), ms(r.raOwn), `${(r.coldAnalyze / r.raOwn).toFixed(2)}×`]),
    ),
    '',
  ].join('\n');
}
