/**
 * The compose hash: a digest of the release this engine runs (DESIGN.md section 8). It is SHA-256
 * of a `sha256sum`-style listing, one line `<sha256 hex>  <path>\n` per file in byte order of the
 * repository-relative POSIX path, over package-lock.json, every file under packages/<name>/src and
 * every file under packages/circuits/artifacts. A changed source file, lock or circuit artifact
 * changes it; a client pins the value it computed from the release it audited.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { proverComposeHashOf } from '@nightjar/protocol';

/** The repository root of this checkout (this file is packages/engine/src/attestation/). */
export const RELEASE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * Whether `root` is a checkout of the release (the sources the compose hash covers). An installed
 * CLI has only compiled packages: it can trade against a venue, not run one.
 */
export function isReleaseCheckout(root: string = RELEASE_ROOT): boolean {
  return existsSync(join(root, 'package-lock.json')) && existsSync(join(root, 'packages', 'engine', 'src'));
}

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
}

/** The files the release digest covers, repository-relative with `/` separators, sorted. */
export function releaseFiles(root: string = RELEASE_ROOT): string[] {
  const files: string[] = [join(root, 'package-lock.json')];
  const packages = join(root, 'packages');
  for (const name of readdirSync(packages).sort()) {
    const src = join(packages, name, 'src');
    if (existsSync(src) && statSync(src).isDirectory()) walk(src, files);
  }
  const artifacts = join(packages, 'circuits', 'artifacts');
  if (existsSync(artifacts)) walk(artifacts, files);
  const rel = files.map((f) => relative(root, f).split(sep).join('/'));
  // Byte order, not locale order, so every platform lists the same way.
  return rel.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** The listing whose SHA-256 is the compose hash (handy for auditing a release by hand). */
export function releaseListing(root: string = RELEASE_ROOT): string {
  return releaseFiles(root)
    .map(
      (path) =>
        `${createHash('sha256')
          .update(readFileSync(join(root, path)))
          .digest('hex')}  ${path}\n`,
    )
    .join('');
}

const cache = new Map<string, string>();

/** The compose hash (64 hex), computed once per process and root. */
export function computeComposeHash(root: string = RELEASE_ROOT): string {
  let hash = cache.get(root);
  if (hash === undefined) {
    hash = createHash('sha256').update(releaseListing(root)).digest('hex');
    cache.set(root, hash);
  }
  return hash;
}

/**
 * A prover worker's compose hash for this release: SHA-256(`nightjar/prover-release/v1` ‖ the
 * release's compose hash). The engine pins it for its workers; an engine's own quote (which
 * replays to the release's compose hash) never passes as a worker's, nor a worker's as an engine's.
 */
export function computeProverComposeHash(root: string = RELEASE_ROOT): string {
  return proverComposeHashOf(computeComposeHash(root));
}
