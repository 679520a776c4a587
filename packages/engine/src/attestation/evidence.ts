/**
 * `/evidences/*`: static gateway files, served as they lie in `<data dir>/attestation/evidences`
 * (a gateway or operator may put its own there). They are never the engine's quote: every reply
 * says so in a header, and the README the engine writes says it in words.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ensurePrivateDir, writeSecretFile } from '@nightjar/protocol';

export const EVIDENCE_HEADER = 'x-nightjar-evidence';
export const EVIDENCE_HEADER_VALUE = 'gateway static file; not the engine quote';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MAX_BYTES = 1024 * 1024;

const README = `These files are static gateway evidence. They are NOT the engine's attestation.

A client authenticates the engine only with GET /transport-attestation?nonce=<fresh 32-byte hex>,
fetched over the very TLS connection it will use, and checked as the interface specification's
Authentication rule 15 says. Nothing under /evidences/ can stand in for that.
`;

const TYPES: Record<string, string> = {
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.pem': 'application/x-pem-file',
};

export class EvidenceFiles {
  private readonly memory = new Map<string, Buffer>([['README.txt', Buffer.from(README)]]);

  constructor(private readonly dir: string | undefined) {
    if (dir) {
      ensurePrivateDir(dir);
      if (!existsSync(join(dir, 'README.txt'))) writeSecretFile(join(dir, 'README.txt'), README);
    }
  }

  /** The file's bytes and content type, or undefined for a bad or unknown name. */
  get(name: string): { body: Buffer; type: string } | undefined {
    if (!NAME.test(name)) return undefined;
    const type = TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
    if (!this.dir) {
      const body = this.memory.get(name);
      return body ? { body, type } : undefined;
    }
    const path = join(this.dir, name);
    if (!existsSync(path)) return undefined;
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    return { body: readFileSync(path), type };
  }
}
