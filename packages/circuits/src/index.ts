/**
 * @nightjar/circuits: Circom circuits VALID_INPUT, VALID_SPEND, VALID_MATCH and VALID_JOIN_SPLIT, their committed
 * artifacts (DEV-ONLY trusted setup, see README.md) and a Node prover.
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
  validInputWitness,
  validSpendWitness,
  type CircuitInput,
  type InclusionPath,
  type ProvableNote,
  type Recipient,
  type WitnessInput,
} from './witness.js';
export {
  MatchWitnessError,
  validMatchWitness,
  type MatchOutputWitness,
  type MatchPartyInput,
  type MatchWitnessErrorCode,
  type ValidMatchParams,
  type ValidMatchWitness,
} from './match-witness.js';
export {
  validJoinSplitWitness,
  type JoinSplitInputNote,
  type JoinSplitOutputWitness,
  type JoinSplitWitness,
  type ValidJoinSplitParams,
} from './join-split-witness.js';
// Settlement v2 (issue 29): the use-tag circuits, beside today's until everything proves them.
export { CIRCUITS_V2, type CircuitV2, type CircuitV2Name } from './circuits-v2.js';
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
  type MatchProofResult,
  type MatchV2ProofResult,
  type ProofResult,
  type ProverOptions,
  type ValidInputRequest,
  type ValidSpendRequest,
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
