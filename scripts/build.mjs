#!/usr/bin/env node
// `npm run build` (and the root `prepare`, so `npm ci` builds): compiles every package's src/ to
// dist/ (ES modules + .d.ts, `tsc -b tsconfig.build.json`, incremental), copies the non-TypeScript
// files of src/ next to the JavaScript (worker bootstraps, poseidon.wasm), builds the app's web
// bundle when packages/app/scripts/build-web.ts exists, and stamps the build
// (packages/cli/dist/.build-stamp) so bin/nightjar.mjs can tell a current dist from a stale one.
//
//   node scripts/build.mjs             fails on a type error
//   node scripts/build.mjs --prepare   reports a type error and goes on (tsc emits anyway): a type
//                                      error must not make `npm ci` fail; `npm run lint` gates them
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const PACKAGES = ['protocol', 'crypto', 'circuits', 'ledger', 'engine', 'sdk', 'app', 'cli'];
/** Written last by a successful build; its content is the time (ms) the build started. */
export const STAMP = join(ROOT, 'packages', 'cli', 'dist', '.build-stamp');

const prepare = process.argv.includes('--prepare');
const started = Date.now();
const require = createRequire(import.meta.url);

function run(args, what) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status === 0) return true;
  if (!prepare) {
    process.stderr.write(`build: ${what} failed\n`);
    process.exit(result.status ?? 1);
  }
  process.stderr.write(`build: ${what} reported errors; continuing (npm ci). Run \`npm run lint\`.\n`);
  return false;
}

// 1. TypeScript: emits JavaScript even when it reports type errors.
run([require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json'], 'tsc -b tsconfig.build.json');

// 2. Files the compiled code loads next to itself (new URL('./x', import.meta.url)).
function copyAssets(src, dist) {
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    const from = join(src, entry.name);
    const to = join(dist, entry.name);
    if (entry.isDirectory()) copyAssets(from, to);
    else if (entry.isFile() && !/\.(tsx?|md)$/.test(entry.name)) {
      if (existsSync(to) && statSync(to).mtimeMs >= statSync(from).mtimeMs) continue;
      mkdirSync(dist, { recursive: true });
      copyFileSync(from, to);
      process.stdout.write(`build: ${relative(ROOT, to)}\n`);
    }
  }
}
for (const name of PACKAGES) {
  const src = join(ROOT, 'packages', name, 'src');
  if (existsSync(src)) copyAssets(src, join(ROOT, 'packages', name, 'dist'));
}

// 3. The app's front-end bundle (packages/app/dist/web), when the app has a build for it.
const buildWeb = join(ROOT, 'packages', 'app', 'scripts', 'build-web.ts');
if (existsSync(buildWeb)) {
  run(['--conditions=nightjar-source', '--import', 'tsx', buildWeb], 'packages/app/scripts/build-web.ts');
}

// 4. The stamp: the bin runs dist only while no file under packages/*/src is newer than this.
mkdirSync(dirname(STAMP), { recursive: true });
writeFileSync(STAMP, `${started}\n`);
