/**
 * A circuit's source fingerprint: SHA-256 over its `.circom` file and every local file it includes
 * (transitively; circomlib's are pinned by the manifest's circomlib version). The ceremony records
 * it per circuit, so the suite can tell in milliseconds that the committed artifacts were built
 * from the sources in the tree; `npm run verify-ceremony` recompiles them byte for byte.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CIRCUITS_DIR = fileURLToPath(new URL('../circuits/', import.meta.url));

const LOCAL_INCLUDE = /^\s*include\s+"(\.{1,2}\/[^"]+)"\s*;/gm;

/** The circuit's file and its local includes, each once, sorted by name. */
export function circuitSourceFiles(name: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const m of readFileSync(path, 'utf8').matchAll(LOCAL_INCLUDE)) visit(resolve(dirname(path), m[1]!));
  };
  visit(join(CIRCUITS_DIR, `${name}.circom`));
  return [...seen].sort();
}

export function circuitSourceSha256(name: string): string {
  const h = createHash('sha256');
  for (const path of circuitSourceFiles(name)) {
    const text = readFileSync(path);
    h.update(`${basename(path)}\n${text.length}\n`).update(text);
  }
  return h.digest('hex');
}
