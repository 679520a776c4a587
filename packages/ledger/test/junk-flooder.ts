/**
 * A flooder in its own process (28.4's regression test, junk-flood.test.ts): `count` join-splits
 * with junk proofs, each signed by a new key and carrying a fresh signer's work, sent at once to
 * the ledger at argv[2] over JSON-RPC. Its proofs pass every cheap check (a root in the window,
 * new nullifiers and commitments), so each admitted one waits for the verifier. Prints a JSON
 * line per refusal for load (`{refused: n}`, n so far) and one once every transaction was
 * answered (`{done, outcomes, signatures, signers}`).
 */
import { randomBytes } from 'node:crypto';
import { chainInfo, RpcLedgerClient, signTransaction } from '@nightjar/protocol/ledger-client';
import { junkJoinSplit } from './junk-join-split.js';

const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const ledger = new RpcLedgerClient(url!);
const chain = await chainInfo(ledger);
const root = (await ledger.getTreeRoot({ tree_id: 0 })).merkle_root;
const junk = Array.from({ length: count }, () =>
  signTransaction(Uint8Array.from(randomBytes(32)), 1n, junkJoinSplit(root), chain, { fresh: true }),
);
let refused = 0;
const answers = junk.map((tx) =>
  ledger.sendTransaction({ transaction: tx }).then(
    () => 'accepted',
    (err: { code?: number }) => {
      // Refusals for load come at once; the admitted wait for the verifier.
      if (err.code === -32007) process.stdout.write(JSON.stringify({ refused: ++refused }) + '\n');
      return String(err.code);
    },
  ),
);
const outcomes = await Promise.all(answers);
process.stdout.write(
  JSON.stringify({
    done: true,
    outcomes,
    signatures: junk.map((tx) => tx.signature),
    signers: junk.map((tx) => tx.signer),
  }) + '\n',
);
await ledger.close();
