#!/usr/bin/env node
// `npm run pack`: builds, then packs every package into installable tarballs (dist/ + .d.ts, and
// the circuit artifacts the prover needs), by default into dist/tarballs/ at the repository root.
//
//   npm run pack [-- --out DIR] [-- --allow-type-errors]
//
// Prints one tarball path per line (JSON with --json). An outside project installs them with
// `npm install <tarballs>` (README.md, "Use the SDK and CLI from your own project").
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Dependencies first: what the SDK needs, then the venue and the CLI. */
export const PACKAGES = ['protocol', 'crypto', 'circuits', 'ledger', 'sdk', 'engine', 'app', 'cli'];

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = resolve(
  outIndex >= 0 && args[outIndex + 1] ? args[outIndex + 1] : join(ROOT, 'dist', 'tarballs'),
);
const json = args.includes('--json');

const build = spawnSync(
  process.execPath,
  [join(ROOT, 'scripts', 'build.mjs'), ...(args.includes('--allow-type-errors') ? ['--prepare'] : [])],
  { cwd: ROOT, stdio: ['ignore', json ? 'ignore' : 'inherit', 'inherit'] },
);
if (build.status !== 0) process.exit(build.status ?? 1);

mkdirSync(out, { recursive: true });
const npm = process.env.npm_execpath;
const packArgs = [
  'pack',
  '--json',
  '--pack-destination',
  out,
  ...PACKAGES.flatMap((name) => ['--workspace', `packages/${name}`]),
];
const stdout = npm
  ? execFileSync(process.execPath, [npm, ...packArgs], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
  : execFileSync('npm', packArgs, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
const packed = JSON.parse(stdout).map((p) => ({
  name: p.name,
  file: join(out, p.filename),
  size: p.size,
  unpackedSize: p.unpackedSize,
  files: p.entryCount,
}));
if (json) process.stdout.write(`${JSON.stringify(packed, null, 2)}\n`);
else for (const p of packed) process.stdout.write(`${p.file}\n`);
