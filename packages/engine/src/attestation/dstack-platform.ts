/**
 * A real confidential VM: quotes, the event log, the app identity and derived keys come from the
 * dstack guest agent (`@phala/dstack-sdk` over its Unix socket, `/var/run/dstack.sock` by default).
 * The quote is Intel-signed, so no collateral is served: a client fetches Intel's from a PCCS and
 * pins Intel's root. The compose hash is the one dstack measured into RTMR3 at boot.
 *
 * This cannot run on a development machine; it is tested against a fake guest-agent socket.
 */
import { hkdfSync } from 'node:crypto';
import { COMPOSE_HASH_EVENT, RUNTIME_EVENT_TYPE } from '@nightjar/protocol';
import type { AttestationPlatform, EventLogEntry, PlatformQuote } from './platform.js';

/** The parts of `DstackClient` this platform uses (so tests and callers can see the surface). */
interface DstackGuest {
  info(): Promise<{ app_id: string; instance_id: string; compose_hash?: string }>;
  getQuote(reportData: Uint8Array): Promise<{ quote: string; event_log: string }>;
  getKey(path?: string, purpose?: string): Promise<{ key: Uint8Array }>;
}

const HEX = /^(0x)?([0-9a-fA-F]*)$/;
/** The purpose every key of this application is requested with. */
const KEY_PURPOSE = 'nightjar/ed25519-seed';
const KEY_SALT = 'nightjar/dstack-key-seed/v1';

function hex(value: unknown, what: string): string {
  const m = typeof value === 'string' ? HEX.exec(value) : null;
  if (!m || m[2]!.length % 2 !== 0) throw new Error(`dstack returned a malformed ${what}`);
  return m[2]!.toLowerCase();
}

function parseEventLog(json: string): EventLogEntry[] {
  const raw = JSON.parse(json) as unknown;
  if (!Array.isArray(raw)) throw new Error('dstack returned a malformed event log');
  return raw.map((e: Record<string, unknown>) => {
    if (typeof e.imr !== 'number' || typeof e.event_type !== 'number' || typeof e.event !== 'string')
      throw new Error('dstack returned a malformed event log entry');
    return {
      imr: e.imr,
      event_type: e.event_type,
      digest: hex(e.digest, 'event digest'),
      event: e.event,
      event_payload: hex(e.event_payload ?? '', 'event payload'),
    };
  });
}

export class DstackPlatform implements AttestationPlatform {
  readonly kind = 'dstack' as const;

  private constructor(
    private readonly guest: DstackGuest,
    readonly appId: string,
    readonly instanceId: string,
    readonly composeHash: string,
  ) {}

  /** Connects to the guest agent at `endpoint` (a socket path or URL; the SDK's default when omitted). */
  static async open(options: { endpoint?: string } = {}): Promise<DstackPlatform> {
    const { DstackClient } = await import('@phala/dstack-sdk');
    const guest = new DstackClient(options.endpoint) as unknown as DstackGuest;
    const info = await guest.info();
    const appId = hex(info.app_id, 'app id');
    const instanceId = hex(info.instance_id, 'instance id');
    let composeHash = info.compose_hash === undefined ? undefined : hex(info.compose_hash, 'compose hash');
    // Older agents leave it out of /Info; the boot event log always has it.
    if (composeHash === undefined) {
      const { eventLog } = await new DstackPlatform(guest, appId, instanceId, '').quote(new Uint8Array(64));
      const event = eventLog.find(
        (e) => e.event_type === RUNTIME_EVENT_TYPE && e.event === COMPOSE_HASH_EVENT,
      );
      composeHash = event?.event_payload;
    }
    if (!composeHash || composeHash.length !== 64) throw new Error('dstack reported no 32-byte compose hash');
    return new DstackPlatform(guest, appId, instanceId, composeHash);
  }

  async quote(reportData: Uint8Array): Promise<PlatformQuote> {
    if (reportData.length !== 64) throw new RangeError('report data is 64 bytes');
    const r = await this.guest.getQuote(reportData);
    return { quote: Buffer.from(hex(r.quote, 'quote'), 'hex'), eventLog: parseEventLog(r.event_log) };
  }

  /**
   * dstack's key API: a key bound to the app (its KMS), the same on every boot and every
   * instance, for a fixed path and purpose; HKDF-SHA256 turns it into a 32-byte seed. Nothing is
   * written to disk.
   */
  async deriveKeySeed(path: string): Promise<Uint8Array> {
    const { key } = await this.guest.getKey(`nightjar/${path}`, KEY_PURPOSE);
    if (key.length < 32) throw new Error('dstack returned a short key');
    return new Uint8Array(hkdfSync('sha256', key, KEY_SALT, path, 32));
  }
}
