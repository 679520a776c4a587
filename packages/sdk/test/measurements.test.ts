/**
 * Issue 16 item 19, on the simulated platform: pinned platform measurements (MRTD, RTMR0–2) beside
 * the compose hash, each mismatch its own typed error before any credential is sent; and DCAP
 * collateral the client fetches itself (a fetcher function, or a PCCS URL, here a local server),
 * preferred over the venue's and never silently replaced by it.
 */
import { createServer, type Server } from 'node:http';
import { Quote } from '@phala/dcap-qvl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollateralBody } from '@nightjar/protocol';
import type { SimulatedPlatform } from '../../engine/src/index.js';
import { buildCollateral } from '../../engine/src/index.js';
import {
  createClient,
  createTransport,
  MEASUREMENT_REGISTERS,
  type CollateralFetcher,
  type CreateClientParameters,
  type PlatformMeasurements,
} from '../src/index.js';
import { expectRejection, pins, requestLog, startTestVenue, type TestVenue } from './helpers.js';
import type { NightjarError } from '../src/index.js';
import {
  NIGHTJAR_ERROR__ATTESTATION_COLLATERAL,
  NIGHTJAR_ERROR__ATTESTATION_MEASUREMENT,
  NIGHTJAR_ERROR__ATTESTATION_TCB,
  TRANSPORT_CHECK,
  isNightjarError,
} from '../src/index.js';

let v: TestVenue;
let platform: SimulatedPlatform;
let expected: PlatformMeasurements;
const log = requestLog();

beforeAll(async () => {
  v = await startTestVenue({ logger: log.logger });
  platform = v.engine.attestation.platform as SimulatedPlatform;
  // What the platform measures, read from one of its quotes independently of the client.
  const td = Quote.parse(Buffer.from((await platform.quote(new Uint8Array(64))).quote)).report.asTd10()!;
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  expected = { mrtd: hex(td.mrTd), rtmr0: hex(td.rtMr0), rtmr1: hex(td.rtMr1), rtmr2: hex(td.rtMr2) };
});
afterAll(async () => {
  await v.close();
});

/** A fresh account's client; `logins()` counts only the client's own logins from the call on. */
async function connect(extra: Partial<CreateClientParameters>) {
  const { credentials } = await v.newAccount();
  loginsBefore = logins();
  const p = pins(v);
  return createClient({
    baseUrl: v.engine.url,
    pinnedRoot: p.rootCaDer,
    composeHash: p.composeHash,
    ledger: v.ledger,
    credentials,
    ...extra,
  });
}

const logins = () => log.requests.filter((r) => r.url.startsWith('/auth/token')).length;
let loginsBefore = 0;

describe('pinned platform measurements', () => {
  it('that match pass, and the verification reports the values', async () => {
    const c = await connect({ pinnedMeasurements: { ...expected, mrtd: expected.mrtd.toUpperCase() } });
    await c.close();
    const t = createTransport({ url: v.engine.url, ...pins(v), measurements: expected });
    try {
      expect((await t.verify()).measurements).toEqual(expected);
    } finally {
      t.close();
    }
  });

  for (const register of MEASUREMENT_REGISTERS) {
    it(`one wrong byte in ${register.toUpperCase()} fails with its own error before any login`, async () => {
      const wrong = Buffer.from(expected[register], 'hex');
      wrong[wrong.length - 1]! ^= 0x01;
      const err = await expectRejection(
        connect({ pinnedMeasurements: { ...expected, [register]: wrong.toString('hex') } }),
      );
      expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_MEASUREMENT)).toBe(true);
      expect(err).toMatchObject({ codeName: 'ATTESTATION_MEASUREMENT', context: { register } });
      expect(TRANSPORT_CHECK[NIGHTJAR_ERROR__ATTESTATION_MEASUREMENT]).toBe('c');
      expect(logins()).toBe(loginsBefore);
    });
  }

  it('a malformed pin is refused when the transport is created', () => {
    expect(() => createTransport({ url: v.engine.url, ...pins(v), measurements: { rtmr0: 'ab' } })).toThrow(
      RangeError,
    );
  });
});

describe('collateral the client fetches itself', () => {
  it('a fetcher is used in preference to the collateral the venue serves', async () => {
    const quotes: Uint8Array[] = [];
    const good: CollateralFetcher = async (quote) => {
      quotes.push(quote);
      return platform.currentCollateral();
    };
    const c = await connect({ fetchCollateral: good });
    await c.close();
    expect(quotes).toHaveLength(1);
    expect(Quote.parse(Buffer.from(quotes[0]!)).report.asTd10()).toBeTruthy();

    // Its answer decides, even though the venue's own collateral says UpToDate.
    const outOfDate: CollateralFetcher = async () =>
      buildCollateral(platform.pki, { tcbStatus: 'OutOfDate' });
    const err = await expectRejection(connect({ fetchCollateral: outOfDate }));
    expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_TCB)).toBe(true);
    expect((err as NightjarError<typeof NIGHTJAR_ERROR__ATTESTATION_TCB>).context.tcbStatus).toBe(
      'OutOfDate',
    );
    expect(logins()).toBe(loginsBefore);
  });

  it('a fetcher that fails is a typed failure, not a fallback to the venue’s collateral', async () => {
    const err = await expectRejection(
      connect({
        fetchCollateral: async () => {
          throw new Error('PCCS unreachable');
        },
      }),
    );
    expect(isNightjarError(err, NIGHTJAR_ERROR__ATTESTATION_COLLATERAL)).toBe(true);
    expect(err).toMatchObject({ codeName: 'ATTESTATION_COLLATERAL' });
    expect(TRANSPORT_CHECK[NIGHTJAR_ERROR__ATTESTATION_COLLATERAL]).toBe('a');
  });

  it('a PCCS URL: the client asks that PCCS (a local one serving the simulated collateral)', async () => {
    const pccs = await startLocalPccs(platform.currentCollateral());
    try {
      const c = await connect({ pccsUrl: pccs.url });
      await c.close();
      expect(pccs.paths).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^\/sgx\/certification\/v4\/pckcrl\?ca=/),
          `/tdx/certification/v4/tcb?fmspc=${platform.pki.tcb.fmspc.toUpperCase()}`,
          '/tdx/certification/v4/qe/identity?update=standard',
        ]),
      );
    } finally {
      await pccs.close();
    }
  });
});

/** A PCCS on loopback speaking the v4 API paths and headers dcap-qvl's `getCollateral` reads. */
async function startLocalPccs(collateral: CollateralBody) {
  const paths: string[] = [];
  const chainHeader = (pem: string) => encodeURIComponent(pem);
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    paths.push(url);
    const path = url.split('?')[0];
    if (path === '/sgx/certification/v4/pckcrl')
      res
        .writeHead(200, { 'SGX-PCK-CRL-Issuer-Chain': chainHeader(collateral.pck_crl_issuer_chain) })
        .end(Buffer.from(collateral.pck_crl, 'hex'));
    else if (path === '/tdx/certification/v4/tcb')
      res
        .writeHead(200, { 'TCB-Info-Issuer-Chain': chainHeader(collateral.tcb_info_issuer_chain) })
        .end(`{"tcbInfo":${collateral.tcb_info},"signature":"${collateral.tcb_info_signature}"}`);
    else if (path === '/tdx/certification/v4/qe/identity')
      res
        .writeHead(200, {
          'SGX-Enclave-Identity-Issuer-Chain': chainHeader(collateral.qe_identity_issuer_chain),
        })
        .end(
          `{"enclaveIdentity":${collateral.qe_identity},"signature":"${collateral.qe_identity_signature}"}`,
        );
    else if (path === '/sgx/certification/v4/rootcacrl') res.writeHead(200).end(collateral.root_ca_crl);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    paths,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
