/**
 * Groth16 over BN254: the 256-byte proof format of DESIGN.md section 3, public-input encoding,
 * snarkjs conversions, verification (single and random-linear-combination batches on mcl-wasm),
 * a worker-thread verifier pool and an adaptive batcher.
 */
export * from './errors.js';
export {
  BASE_FIELD_MODULUS,
  SCALAR_FIELD_MODULUS,
  PROOF_BYTES,
  FIELD_ELEMENT_BYTES,
  proofFromSnarkjs,
  proofToSnarkjs,
  encodeProof,
  decodeProof,
  snarkjsProofToBytes,
  bytesToSnarkjsProof,
  assertProofLength,
  firstOutOfRangeCoordinate,
  type G1Point,
  type G2Point,
  type Fp2Element,
  type Groth16Proof,
  type SnarkjsProof,
} from './proof-format.js';
export {
  encodePublicInputs,
  decodePublicInputs,
  assertPublicInputLength,
  firstOutOfRangePublicInput,
  publicSignalsToBigInts,
  bigIntsToPublicSignals,
  publicSignalsToBytes,
  bytesToPublicSignals,
} from './public-inputs.js';
export {
  parseVerificationKey,
  verificationKeyToSnarkjs,
  type SnarkjsVerificationKey,
  type VerificationKey,
} from './verification-key.js';
export {
  Groth16Verifier,
  initMcl,
  checkProofPoints,
  g2SubgroupCheckMethod,
  type ProofItem,
  type BatchOptions,
  type ProofPointStatus,
} from './mcl-verifier.js';
export {
  VerifierPool,
  type VerifierPoolOptions,
  type VerificationKeyInput,
  type RawProofItem,
} from './verifier-pool.js';
export { AdaptiveBatcher, type AdaptiveBatcherOptions, type BatcherStats } from './adaptive-batcher.js';
export {
  encodeOrderCheck,
  decodeOrderResults,
  runOrderChecks,
  prepareOrderChecks,
  finishOrderChecks,
  ORDER_RECORD_BYTES,
  ORDER_RESULT_BYTES,
  ORDER_CHECK_PUBLIC_INPUTS,
  type OrderCheckItem,
  type OrderCheckOutcome,
  type OrderCheckStep,
  type OrderNote,
  type FieldInput,
  type PreparedOrderChecks,
} from './order-check.js';
