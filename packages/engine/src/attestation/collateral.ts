/**
 * DCAP collateral under the simulated PKI, in `@phala/dcap-qvl`'s `Collateral` shape: TCB info v3
 * for TDX (with `tdxtcbcomponents`) and QE identity v2 for the TD quoting enclave, each signed by
 * the TCB signing certificate (ECDSA P-256 over the exact JSON bytes, raw r‖s as hex), the issuer
 * chains as PEM, and the two CRLs as DER hex.
 */
import { createHash, sign } from 'node:crypto';
import type { CollateralBody } from '@nightjar/protocol';
import { pemChain, type SimulatedPki } from './simulated-pki.js';

export type TcbStatus =
  | 'UpToDate'
  | 'SWHardeningNeeded'
  | 'ConfigurationNeeded'
  | 'ConfigurationAndSWHardeningNeeded'
  | 'OutOfDate'
  | 'OutOfDateConfigurationNeeded'
  | 'Revoked';

/** The simulated TD quoting enclave's signer (SHA-256 of a label; Intel's is a fixed value too). */
export const SIMULATED_QE_MRSIGNER = createHash('sha256').update('nightjar simulated TD_QE signer').digest();
export const QE_ISV_PROD_ID = 2;
/** QE report attributes: INIT | MODE64BIT, never DEBUG. */
export const QE_ATTRIBUTES = Buffer.from('11000000000000000000000000000000', 'hex');
const TCB_EVALUATION_DATA_NUMBER = 17;
const VALIDITY_MS = 30 * 24 * 3600 * 1000;

export interface CollateralOptions {
  /** Status of the platform's TCB level (tests sign other statuses). */
  tcbStatus?: TcbStatus;
  /** Issue time; the collateral is valid for 30 days from it. */
  now?: Date;
}

function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** ECDSA P-256 / SHA-256 signature as raw r‖s hex, the collateral JSON's signature format. */
function signRaw(pki: SimulatedPki, body: string): string {
  return sign('sha256', Buffer.from(body, 'utf8'), {
    key: pki.tcbSigning.key,
    dsaEncoding: 'ieee-p1363',
  }).toString('hex');
}

export function buildCollateral(pki: SimulatedPki, options: CollateralOptions = {}): CollateralBody {
  const now = options.now ?? new Date();
  const issueDate = iso(new Date(now.getTime() - 60_000));
  const nextUpdate = iso(new Date(now.getTime() + VALIDITY_MS));
  const tcbDate = iso(new Date(Date.UTC(2024, 2, 13)));
  const tcbInfo = JSON.stringify({
    id: 'TDX',
    version: 3,
    issueDate,
    nextUpdate,
    fmspc: pki.tcb.fmspc,
    pceId: pki.tcb.pceId,
    tcbType: 0,
    tcbEvaluationDataNumber: TCB_EVALUATION_DATA_NUMBER,
    tdxModule: {
      mrsigner: '00'.repeat(48),
      attributes: '0000000000000000',
      attributesMask: 'FFFFFFFFFFFFFFFF',
    },
    tcbLevels: [
      {
        tcb: {
          sgxtcbcomponents: pki.tcb.sgxComponents.map((svn) => ({ svn })),
          pcesvn: pki.tcb.pceSvn,
          tdxtcbcomponents: pki.tcb.tdxComponents.map((svn) => ({ svn })),
        },
        tcbDate,
        tcbStatus: options.tcbStatus ?? 'UpToDate',
      },
    ],
  });
  const qeIdentity = JSON.stringify({
    id: 'TD_QE',
    version: 2,
    issueDate,
    nextUpdate,
    tcbEvaluationDataNumber: TCB_EVALUATION_DATA_NUMBER,
    miscselect: '00000000',
    miscselectMask: 'FFFFFFFF',
    attributes: QE_ATTRIBUTES.toString('hex').toUpperCase(),
    attributesMask: 'FBFFFFFFFFFFFFFF0000000000000000',
    mrsigner: SIMULATED_QE_MRSIGNER.toString('hex').toUpperCase(),
    isvprodid: QE_ISV_PROD_ID,
    tcbLevels: [{ tcb: { isvsvn: pki.tcb.qeIsvSvn }, tcbDate, tcbStatus: 'UpToDate' }],
  });
  const signingChain = pemChain(pki.tcbSigning.cert, pki.root.cert);
  return {
    pck_crl_issuer_chain: pemChain(pki.pckCa.cert, pki.root.cert),
    root_ca_crl: Buffer.from(pki.rootCrl).toString('hex'),
    pck_crl: Buffer.from(pki.pckCrl).toString('hex'),
    tcb_info_issuer_chain: signingChain,
    tcb_info: tcbInfo,
    tcb_info_signature: signRaw(pki, tcbInfo),
    qe_identity_issuer_chain: signingChain,
    qe_identity: qeIdentity,
    qe_identity_signature: signRaw(pki, qeIdentity),
  };
}
