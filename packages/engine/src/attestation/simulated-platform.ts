/**
 * The default platform: a simulated TDX guest. Each boot has a fixed event log (simulated
 * firmware and OS measurements in RTMR0–2, dstack-style runtime events in RTMR3 with exactly one
 * `compose-hash` event); each quote is a genuine DCAP TDX v4 quote whose RTMRs are that log's
 * replay, signed under the simulated PKI, served with collateral that verifies under its root.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  COMPOSE_HASH_EVENT,
  createSecretFile,
  ensurePrivateDir,
  readSecretFile,
  replayRtmr,
  RUNTIME_EVENT_TYPE,
  runtimeEventDigest,
} from '@nightjar/protocol';
import { buildCollateral, QE_ATTRIBUTES, QE_ISV_PROD_ID, SIMULATED_QE_MRSIGNER } from './collateral.js';
import type { AttestationPlatform, EventLogEntry, PlatformQuote } from './platform.js';
import {
  loadOrCreateSimulatedPki,
  pemChain,
  rootDer,
  simulatedMeasurement,
  type SimulatedPki,
} from './simulated-pki.js';
import { buildTdxQuote, type TdReportFields } from './tdx-quote.js';

/** Collateral is re-issued when older than this (it is valid for 30 days). */
const COLLATERAL_REFRESH_MS = 12 * 3600 * 1000;
/** TD attributes: SEPT_VE_DISABLE set, no debug, no reserved bits (dcap-qvl checks all three). */
const TD_ATTRIBUTES = Buffer.from('0000001000000000', 'hex');
const XFAM = Buffer.from('e71a060000000000', 'hex');
/** A non-runtime event type for the simulated firmware entries (EV_EFI_PLATFORM_FIRMWARE_BLOB2). */
const EV_FIRMWARE = 0x8000000a;

interface Identity {
  app_id: string;
  instance_id: string;
  sealing_secret: string;
}

export interface SimulatedPlatformOptions {
  /** `<data dir>/attestation`; in memory only when omitted. */
  dir: string | undefined;
  composeHash: string;
  /**
   * The simulated Intel PKI's directory; default `<dir>/pki`. Engines and prover workers of one
   * venue on the simulated platform share one (as real CVMs share Intel's root), so a client
   * pins one root for every engine and an engine one root for its workers.
   */
  pkiDir?: string;
}

function firmwareEntry(imr: number, label: string): EventLogEntry {
  return {
    imr,
    event_type: EV_FIRMWARE,
    digest: Buffer.from(simulatedMeasurement(label)).toString('hex'),
    event: '',
    event_payload: Buffer.from(label, 'utf8').toString('hex'),
  };
}

function runtimeEntry(event: string, payload: Uint8Array): EventLogEntry {
  return {
    imr: 3,
    event_type: RUNTIME_EVENT_TYPE,
    digest: Buffer.from(runtimeEventDigest(RUNTIME_EVENT_TYPE, event, payload)).toString('hex'),
    event,
    event_payload: Buffer.from(payload).toString('hex'),
  };
}

function loadOrCreateIdentity(dir: string | undefined): Identity {
  const file = dir ? join(dir, 'identity.json') : undefined;
  const saved = file ? readSecretFile(file) : undefined;
  if (saved !== undefined) return JSON.parse(saved) as Identity;
  const identity: Identity = {
    app_id: randomBytes(20).toString('hex'),
    instance_id: randomBytes(20).toString('hex'),
    sealing_secret: randomBytes(32).toString('hex'),
  };
  // Exclusive: a file another start made first is the identity (read back, so both agree).
  if (file && !createSecretFile(file, JSON.stringify(identity) + '\n')) return loadOrCreateIdentity(dir);
  return identity;
}

export class SimulatedPlatform implements AttestationPlatform {
  readonly kind = 'simulated' as const;
  readonly appId: string;
  readonly instanceId: string;
  readonly rootCa: { path: string | undefined; der: Uint8Array };
  readonly eventLog: EventLogEntry[];
  private readonly rtmrs: [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
  private readonly sealingSecret: Buffer;
  private collateral: { issuedAt: number; body: ReturnType<typeof buildCollateral> } | undefined;

  private constructor(
    readonly pki: SimulatedPki,
    identity: Identity,
    readonly composeHash: string,
  ) {
    this.appId = identity.app_id;
    this.instanceId = identity.instance_id;
    this.sealingSecret = Buffer.from(identity.sealing_secret, 'hex');
    this.rootCa = { path: pki.rootDerPath, der: rootDer(pki) };
    this.eventLog = [
      firmwareEntry(0, 'TD firmware (TDVF) configuration'),
      firmwareEntry(1, 'OS loader and kernel'),
      firmwareEntry(2, 'kernel command line and initrd'),
      runtimeEntry('system-preparing', new Uint8Array()),
      runtimeEntry('app-id', Buffer.from(this.appId, 'hex')),
      runtimeEntry(COMPOSE_HASH_EVENT, Buffer.from(composeHash, 'hex')),
      runtimeEntry('instance-id', Buffer.from(this.instanceId, 'hex')),
      runtimeEntry('boot-mr-done', new Uint8Array()),
    ];
    const replay = (imr: number) =>
      replayRtmr(this.eventLog.filter((e) => e.imr === imr).map((e) => Buffer.from(e.digest, 'hex')));
    this.rtmrs = [replay(0), replay(1), replay(2), replay(3)];
  }

  static async open(options: SimulatedPlatformOptions): Promise<SimulatedPlatform> {
    if (!/^[0-9a-f]{64}$/.test(options.composeHash)) throw new Error('composeHash must be 32 bytes of hex');
    if (options.dir) ensurePrivateDir(options.dir);
    if (options.pkiDir) ensurePrivateDir(options.pkiDir);
    const pki = await loadOrCreateSimulatedPki(
      options.pkiDir ?? (options.dir ? join(options.dir, 'pki') : undefined),
    );
    return new SimulatedPlatform(pki, loadOrCreateIdentity(options.dir), options.composeHash);
  }

  async quote(reportData: Uint8Array): Promise<PlatformQuote> {
    if (reportData.length !== 64) throw new RangeError('report data is 64 bytes');
    const { tcb } = this.pki;
    const report: TdReportFields = {
      teeTcbSvn: Uint8Array.from(tcb.tdxComponents),
      mrSeam: simulatedMeasurement('TDX module'),
      mrSignerSeam: new Uint8Array(48),
      seamAttributes: new Uint8Array(8),
      tdAttributes: TD_ATTRIBUTES,
      xfam: XFAM,
      mrTd: simulatedMeasurement('MRTD: initial TD memory (TDVF)'),
      mrConfigId: new Uint8Array(48),
      mrOwner: new Uint8Array(48),
      mrOwnerConfig: new Uint8Array(48),
      rtmrs: this.rtmrs,
      reportData,
    };
    const quote = buildTdxQuote(
      report,
      {
        cpuSvn: Uint8Array.from(tcb.sgxComponents),
        attributes: QE_ATTRIBUTES,
        mrEnclave: createHash('sha256').update('nightjar simulated TD_QE enclave').digest(),
        mrSigner: SIMULATED_QE_MRSIGNER,
        isvProdId: QE_ISV_PROD_ID,
        isvSvn: tcb.qeIsvSvn,
      },
      {
        attestationKey: this.pki.attestationKey,
        pckKey: this.pki.pck.key,
        pckChainPem: pemChain(this.pki.pck.cert, this.pki.pckCa.cert, this.pki.root.cert),
        qeId: Buffer.from(tcb.qeId, 'hex'),
        pceSvn: tcb.pceSvn,
        qeSvn: tcb.qeIsvSvn,
      },
    );
    return { quote, eventLog: this.eventLog, collateral: this.currentCollateral() };
  }

  /** Collateral under the simulated root, re-issued twice a day so it never nears its expiry. */
  currentCollateral(): ReturnType<typeof buildCollateral> {
    const now = Date.now();
    if (!this.collateral || now - this.collateral.issuedAt > COLLATERAL_REFRESH_MS)
      this.collateral = { issuedAt: now, body: buildCollateral(this.pki) };
    return this.collateral.body;
  }

  /** HMAC-SHA256 of the path under a secret sealed (0600) in the data directory. */
  async deriveKeySeed(path: string): Promise<Uint8Array> {
    return new Uint8Array(createHmac('sha256', this.sealingSecret).update(`nightjar/key/${path}`).digest());
  }
}
