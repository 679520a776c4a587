/**
 * The toy Groth16 keys and proofs the crypto package generates for its verifier tests
 * (`packages/crypto/scripts/make-*.ts` write them there); the CLI's and the circuits' tests read
 * its toy verification keys too, through this one reference.
 */
export const GROTH16_FIXTURES = new URL('../../crypto/test/fixtures/groth16/', import.meta.url);
