/**
 * Which peer engines' settlement keys this engine puts in the ledger's signer set (DESIGN 11).
 * The engines table in PostgreSQL says where each peer is and which key it has, but whoever can
 * write that table could name a key of their own: so a peer's key is admitted only once this
 * engine has fetched, itself, a quote from the peer at its base URL binding that key to a fresh
 * nonce, and checked it (`settlement-key-check.ts`). A key so checked is a genuine engine's for
 * good (it never leaves its TEE), so it is remembered and a peer that restarts keeps its place;
 * a key that fails is left out, logged, and tried again at the next heartbeat.
 */
import type { Collateral } from '@phala/dcap-qvl';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  parseBody,
  parseJsonExact,
  SETTLEMENT_KEY_EVIDENCE_MAX_BYTES,
  settlementKeyEvidenceCodec,
  type SettlementKeyEvidence,
} from '@nightjar/protocol';
import { checkSettlementKeyEvidence } from './settlement-key-check.js';

/** A row of the engines table: a peer's key and where it says it is. */
export interface PeerEngine {
  teeKey: string;
  baseUrl: string;
}

export interface PeerSignersOptions {
  /** The pinned platform root peers' quotes must chain to (DER). */
  rootCaDer: Uint8Array;
  /** This engine's own compose hash: its peers run the same release. */
  composeHash: string;
  /** This engine's own DCAP collateral source (a real CVM's peers send none). */
  fetchCollateral?: (quote: Uint8Array) => Promise<Collateral>;
  warn: (fields: object, msg: string) => void;
  now: () => number;
  /** How long one peer may take to answer (default 5,000 ms). */
  timeoutMs?: number;
}

export class PeerSigners {
  private readonly verified = new Set<string>();
  /** The last refusal logged per key, so that a heartbeat logs a refusal only when it changes. */
  private readonly refused = new Map<string, string>();

  constructor(private readonly o: PeerSignersOptions) {}

  /** The keys of `peers` that are genuine engines' keys of this release, checked in parallel. */
  async admit(peers: readonly PeerEngine[]): Promise<string[]> {
    const checked = await Promise.all(peers.map(async (p) => ((await this.isGenuine(p)) ? p.teeKey : '')));
    return checked.filter((key) => key !== '');
  }

  private async isGenuine(peer: PeerEngine): Promise<boolean> {
    if (this.verified.has(peer.teeKey)) return true;
    try {
      const nonce = new Uint8Array(randomBytes(32));
      const evidence = await this.fetchEvidence(peer.baseUrl, nonce);
      const collateral = await this.o.fetchCollateral?.(Buffer.from(evidence.quote, 'hex'));
      checkSettlementKeyEvidence({
        evidence,
        nonce,
        teeKey: peer.teeKey,
        rootCaDer: this.o.rootCaDer,
        composeHash: this.o.composeHash,
        ...(collateral ? { collateral } : {}),
        nowMs: this.o.now(),
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (this.refused.get(peer.teeKey) !== reason)
        this.o.warn(
          { tee_key: peer.teeKey, base_url: peer.baseUrl, reason },
          'an engines-table key is left out of the signer set: its engine did not prove it holds it',
        );
      this.refused.set(peer.teeKey, reason);
      return false;
    }
    this.verified.add(peer.teeKey);
    this.refused.delete(peer.teeKey);
    return true;
  }

  private async fetchEvidence(baseUrl: string, nonce: Uint8Array): Promise<SettlementKeyEvidence> {
    const url = new URL('/attestation/settlement-key', baseUrl);
    url.searchParams.set('nonce', Buffer.from(nonce).toString('hex'));
    const text = await getText(url, this.o.timeoutMs ?? 5_000);
    const parsed = parseBody(settlementKeyEvidenceCodec, parseJsonExact(text));
    if (!parsed.ok) throw new Error(`the peer's evidence is malformed: ${parsed.message}`);
    return parsed.value;
  }
}

/**
 * GETs `url` (at most the evidence limit, within `timeoutMs`). The peer's TLS certificate is its
 * own per-boot self-signed one and is not what is trusted here: the quote binds this request's
 * nonce and the key, so a man in the middle can only make the check fail.
 */
function getText(url: URL, timeoutMs: number): Promise<string> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { rejectUnauthorized: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > SETTLEMENT_KEY_EVIDENCE_MAX_BYTES) req.destroy(new Error('the peer answered too much'));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode === 200) resolve(body);
        else reject(new Error(`the peer answered ${res.statusCode}: ${body.slice(0, 200)}`));
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`the peer did not answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
