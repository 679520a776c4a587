/**
 * @nightjar/circuits: the Circom circuits of settlement v2 (VALID_INPUT v2, VALID_LOCK, VALID_MATCH
 * v2, VALID_JOIN_SPLIT v2, VALID_SPEND v2), their committed artifacts (DEV-ONLY
 * trusted setup, see README.md) and a Node prover.
 */
export {
  ARTIFACTS_DIR,
  ArtifactIntegrityError,
  CIRCUITS,
  MANIFEST_FILE,
  MANIFEST_PATH,
  PTAU_FILE,
  artifactPaths,
  loadArtifact,
  loadCircuitArtifacts,
  loadVerificationKey,
  readManifest,
  sha256Hex,
  verifyAllArtifacts,
  type ArtifactManifest,
  type CircuitArtifacts,
  type CircuitFiles,
  type CircuitName,
} from './artifacts.js';
export { DevOnlyKeysError, circuitKeysInfo, loadCircuitKeys, type CircuitKeySet } from './circuit-keys.js';
export {
  ProverInputError,
  pathBits,
  recipientToFields,
  type CircuitInput,
  type InclusionPath,
  type ProvableNote,
  type Recipient,
} from './witness.js';
export {
  validJoinSplitWitness,
  type JoinSplitInputNote,
  type JoinSplitOutputWitness,
  type JoinSplitWitness,
  type ValidJoinSplitParams,
} from './join-split-witness.js';
export { SettlementWitnessError, type SettlementWitnessErrorCode } from './witness-v2.js';
export {
  validInputV2Witness,
  validLockWitness,
  type LockWitness,
  type ValidInputV2Params,
  type ValidLockParams,
} from './lock-witness.js';
export {
  validMatchV2Witness,
  type MatchOrderTerms,
  type MatchV2OutputWitness,
  type MatchV2Party,
  type ValidMatchV2Params,
  type ValidMatchV2Witness,
} from './match-witness-v2.js';
export {
  validSpendV2Witness,
  type ValidSpendV2Params,
  type ValidSpendV2Witness,
} from './spend-witness-v2.js';
export {
  calculateWitness,
  snarkjsGroth16Prove,
  type Groth16Prove,
  type Groth16ProveResult,
} from './groth16-backend.js';
export {
  NoteProver,
  ProverClosedError,
  ProverError,
  ProverQueueFullError,
  defaultProver,
  type LockProofResult,
  type MatchV2ProofResult,
  type ProofResult,
  type ProverOptions,
} from './prover.js';
export {
  NativeGroth16Key,
  NativeProverError,
  defaultAddonLoader,
  encodeWitness,
  loadNativeAddon,
  nativeProve,
  nativeProverAvailable,
  selectProverBackend,
  witnessFromWtns,
  type AddonLoader,
  type NativeAddon,
  type NativeProofResult,
  type NativeProofTimes,
  type NativeProverErrorCode,
  type ProverBackend,
} from './native-prover.js';
