/**
 * Start-up: the match prover's warm-up. Before the first auction, every prover worker readies the
 * VALID_MATCH and VALID_LOCK keys (started, artifacts loaded and checked, keys parsed), so no
 * match's proof pays for that inside its locks; the proof it times seeds the lock window's
 * estimate. A warm-up that fails is logged and the boot goes on: the first proof starts the
 * prover then, as before.
 */
import type { MatchProver } from '../settlement/match-prover.js';
import { errText, type PipelineLog } from '../settlement/pipeline-log.js';

export async function warmMatchProver(
  prover: MatchProver,
  log: PipelineLog,
  seedProofTime: (ms: number) => void,
): Promise<void> {
  if (!prover.warm) return;
  const started = performance.now();
  try {
    const proofMs = await prover.warm();
    if (proofMs !== undefined) seedProofTime(proofMs);
    log.info(
      { warm_ms: Math.round(performance.now() - started), proof_ms: proofMs && Math.round(proofMs) },
      'match prover warmed',
    );
  } catch (err) {
    log.warn({ err: errText(err) }, 'match prover warm-up failed: its first proof starts it');
  }
}
