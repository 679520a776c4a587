#!/usr/bin/env node
// The `nightjar` command. Runs the compiled CLI (../dist/main.js) with plain Node when it is there
// and current; otherwise the TypeScript sources through tsx.
//
// Installed from its tarball the package has dist/ and no src/: dist, always. In the repository
// `npm ci` builds dist/ (the root `prepare`), but sources change after that; dist is used only while
// no file under packages/*/src is newer than the last `npm run build` (its stamp,
// dist/.build-stamp): a stat of each source file, a few milliseconds. Otherwise the sources run, as
// they always did before there was a build, so a stale dist is never run.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** True when some file under `dir` was modified after `since` (ms). */
function newerThan(dir, since) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() ? newerThan(path, since) : statSync(path).mtimeMs > since) return true;
  }
  return false;
}

function distIsCurrent() {
  if (!existsSync(here('../dist/main.js'))) return false;
  if (!existsSync(here('../src'))) return true; // an installed package: dist is all there is
  let stamp;
  try {
    stamp = Number(readFileSync(here('../dist/.build-stamp'), 'utf8'));
  } catch {
    return false;
  }
  const packages = here('../../');
  for (const name of readdirSync(packages)) {
    const src = `${packages}${name}/src`;
    if (existsSync(src) && newerThan(src, stamp)) return false;
  }
  return true;
}

if (process.env.NIGHTJAR_FROM_SOURCE !== '1' && distIsCurrent()) {
  await import('../dist/main.js');
} else {
  // The sources (this process was started without the "nightjar-source" condition or tsx).
  const { importSource } = await import('@nightjar/protocol/source-import');
  await importSource('../src/main.ts', import.meta.url);
}
