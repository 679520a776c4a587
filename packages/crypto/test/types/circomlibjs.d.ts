// Only what the crypto tests use to cross-check Poseidon vectors (circomlibjs ships no types).
declare module 'circomlibjs' {
  interface CircomlibPoseidonField {
    toObject(element: Uint8Array): bigint;
  }
  interface CircomlibPoseidon {
    (inputs: bigint[]): Uint8Array;
    F: CircomlibPoseidonField;
  }
  export function buildPoseidon(): Promise<CircomlibPoseidon>;
}
