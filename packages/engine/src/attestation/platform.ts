/**
 * What the engine needs from its trusted execution platform, whichever it is: a quote over 64
 * bytes of report data with the event log behind it (and, where the platform can, the DCAP
 * collateral to verify it), the platform's identity, and stable key material for the settlement
 * key. Two implementations: `SimulatedPlatform` (default; a simulated Intel PKI in the data
 * directory) and `DstackPlatform` (a real CVM through the dstack guest agent's socket).
 */
import type { CollateralBody, EventLogEntryBody } from '@nightjar/protocol';

export type PlatformKind = 'simulated' | 'dstack';

export interface EventLogEntry {
  imr: number;
  event_type: number;
  /** 48 bytes, hex. */
  digest: string;
  event: string;
  /** Hex. */
  event_payload: string;
}

export interface PlatformQuote {
  quote: Uint8Array;
  eventLog: EventLogEntry[];
  /** DCAP collateral, when the platform serves it (always on the simulated platform). */
  collateral?: CollateralBody;
}

export interface AttestationPlatform {
  readonly kind: PlatformKind;
  /** The application identity (hex of its bytes); the manifest carries SHA-256 of those bytes. */
  readonly appId: string;
  /** This instance's identity (hex of its bytes), likewise hashed into the manifest. */
  readonly instanceId: string;
  /** 32 bytes hex: the payload of the event log's one runtime `compose-hash` event. */
  readonly composeHash: string;
  /** Simulated platform only: where its root CA certificate (DER) is, and its bytes. */
  readonly rootCa?: { path: string | undefined; der: Uint8Array };
  /** A quote binding exactly these 64 bytes of report data. */
  quote(reportData: Uint8Array): Promise<PlatformQuote>;
  /** 32 bytes of key material bound to this application and `path`, the same at every boot. */
  deriveKeySeed(path: string): Promise<Uint8Array>;
}

/** Event-log entries as JSON bodies (integers are plain numbers here). */
export function eventLogBody(log: readonly EventLogEntry[]): EventLogEntryBody[] {
  return log.map((e) => ({
    imr: e.imr,
    event_type: BigInt(e.event_type),
    digest: e.digest,
    event: e.event,
    event_payload: e.event_payload,
  }));
}
