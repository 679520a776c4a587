/** Page limits of the ledger's reads: the method table's codecs and the server both hold to them. */
export const MAX_MEMOS_PER_READ = 10_000;
export const MAX_NULLIFIERS_PER_READ = 256;
export const MAX_DEPOSITS_PER_READ = 1_000;
/** Page of `getSpentNullifiers` and `getLiveLocks`. */
export const MAX_NOTE_STATES_PER_READ = 4_096;
