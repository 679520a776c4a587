#!/usr/bin/env node
// Install benchmark (issue 32, "installs in seconds"; results in docs/benchmarks/app.md, "Installs"):
//  1. `npm ci` in a fresh clone of this repository's HEAD (its `prepare` builds every package);
//  2. an SDK-only install: the SDK's tarballs (`npm run pack`) into an empty project, as README.md
//     shows, with npm's defaults (the native prover's install script runs) and with it denied.
// Each from a warm npm cache: one untimed run first fills it, then ROUNDS timed runs (medians).
//
//   npm run bench:install [-- --only sdk|ci] [-- --out FILE]      (ROUNDS=3)
//
// Uncommitted changes are not measured: the clone is of HEAD.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SDK_PACKAGES = ['protocol', 'crypto', 'circuits', 'sdk'];
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const only = option('--only');
const outFile = resolve(option('--out') ?? join(ROOT, 'docs', 'benchmarks', 'app.md'));

/** This process's environment without what `npm run` adds (it would point npm at this repository). */
function cleanEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('npm_') && k !== 'INIT_CWD' && k !== 'NODE_OPTIONS') env[k] = v;
  }
  return env;
}

/** Seconds one command takes; a failed command ends the benchmark. */
function timed(cmd, cmdArgs, cwd) {
  const start = performance.now();
  const result = spawnSync(cmd, cmdArgs, { cwd, env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  const seconds = (performance.now() - start) / 1000;
  if (result.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed in ${cwd}:\n${result.stderr}`);
  return seconds;
}

/** A warm-up run, then ROUNDS timed runs; `prepare` resets the directory before each. */
function measure(label, prepare, cmd, cmdArgs) {
  const runs = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const cwd = prepare();
    const seconds = timed(cmd, cmdArgs, cwd);
    if (round > 0) runs.push(seconds);
    process.stdout.write(`${label}${round === 0 ? ' (warm-up)' : ''}: ${seconds.toFixed(1)} s\n`);
  }
  const sorted = [...runs].sort((a, b) => a - b);
  return { label, median: sorted[Math.floor(sorted.length / 2)], runs };
}

function benchNpmCi(work) {
  const clone = join(work, 'clone');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);
  const prepare = () => {
    rmSync(join(clone, 'node_modules'), { recursive: true, force: true });
    return clone;
  };
  return [measure('`npm ci` in a fresh clone (builds every package)', prepare, 'npm', ['ci', ...NPM_FLAGS])];
}

function benchSdkInstall(work) {
  const tarballDir = join(work, 'tarballs');
  const packed = JSON.parse(
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'pack.mjs'), '--json', '--out', tarballDir], {
      cwd: ROOT,
      env: cleanEnv(),
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    }),
  );
  const file = (name) => packed.find((p) => p.name === `@nightjar/${name}`).file;
  const tarballs = SDK_PACKAGES.map(file);
  const project = (allowScripts) => () => {
    const dir = join(work, 'bot');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const manifest = { name: 'bot', version: '1.0.0', private: true, type: 'module', allowScripts };
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
    return dir;
  };
  const install = ['install', ...NPM_FLAGS, ...tarballs];
  return [
    measure(
      'SDK-only install from tarballs (npm defaults: the native prover builds)',
      project({}),
      'npm',
      install,
    ),
    measure(
      'SDK-only install from tarballs, the prover denied (snarkjs fallback)',
      project({ [`file:${file('circuits')}`]: false }),
      'npm',
      install,
    ),
  ];
}

/** The "Installs" section of the results file, replaced (or appended) with these figures. */
function writeResults(results) {
  const rows = results.map(
    (r) => `| ${r.label} | **${r.median.toFixed(1)} s** | ${r.runs.map((s) => s.toFixed(1)).join(', ')} |`,
  );
  const section = [
    '## Installs',
    '',
    `\`npm run bench:install\` (\`scripts/bench-install.mjs\`): each from a warm npm cache (an untimed`,
    `run first), ${ROUNDS} timed runs, median; Node ${process.versions.node}, measured on`,
    `${new Date().toISOString().slice(0, 10)}.`,
    '',
    '| install | median | runs (s) |',
    '| --- | ---: | --- |',
    ...rows,
    '',
  ].join('\n');
  const doc = readFileSync(outFile, 'utf8');
  const start = doc.indexOf('\n## Installs\n');
  const end = start < 0 ? -1 : doc.indexOf('\n## ', start + 1);
  const next =
    start < 0
      ? `${doc.trimEnd()}\n\n${section}`
      : `${doc.slice(0, start + 1)}${section}${end < 0 ? '' : doc.slice(end)}`;
  writeFileSync(outFile, next);
  process.stdout.write(`wrote the Installs section of ${outFile}\n`);
}

const work = mkdtempSync(join(tmpdir(), 'nightjar-bench-install-'));
try {
  const results = [
    ...(only === 'sdk' ? [] : benchNpmCi(work)),
    ...(only === 'ci' ? [] : benchSdkInstall(work)),
  ];
  writeResults(results);
} finally {
  rmSync(work, { recursive: true, force: true });
}
