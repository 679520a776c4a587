/**
 * The settlement v2 circuits (issue 29), beside today's until the wiring session runs the
 * ceremony for them and swaps them in: their main templates and public signals in proof order.
 * They have no artifacts in artifacts/ yet (no zkey, no manifest entry); tests compile them.
 */
import {
  VALID_INPUT_V2_PUBLIC_INPUTS,
  VALID_JOIN_SPLIT_PUBLIC_INPUTS,
  VALID_LOCK_PUBLIC_INPUTS,
  VALID_MATCH_V2_PUBLIC_INPUTS,
  VALID_SPEND_V2_PUBLIC_INPUTS,
} from '@nightjar/crypto';

export type CircuitV2Name =
  'valid_input_v2' | 'valid_lock' | 'valid_match_v2' | 'valid_spend_v2' | 'valid_join_split_v2';

export interface CircuitV2 {
  /** Circom template instantiated by the main component of circuits/<name>.circom. */
  readonly template: string;
  /** Public signals in proof order: the circuit's outputs first, then its public inputs. */
  readonly publicInputs: readonly string[];
}

export const CIRCUITS_V2: Readonly<Record<CircuitV2Name, CircuitV2>> = {
  valid_input_v2: { template: 'ValidInputV2(20)', publicInputs: VALID_INPUT_V2_PUBLIC_INPUTS },
  valid_lock: { template: 'ValidLock(20)', publicInputs: VALID_LOCK_PUBLIC_INPUTS },
  valid_match_v2: { template: 'ValidMatchV2()', publicInputs: VALID_MATCH_V2_PUBLIC_INPUTS },
  valid_spend_v2: { template: 'ValidSpendV2(20)', publicInputs: VALID_SPEND_V2_PUBLIC_INPUTS },
  // The same signals as VALID_JOIN_SPLIT: validJoinSplitWitness builds its input.
  valid_join_split_v2: {
    template: 'ValidJoinSplitV2(20, 4, 8)',
    publicInputs: VALID_JOIN_SPLIT_PUBLIC_INPUTS,
  },
};
