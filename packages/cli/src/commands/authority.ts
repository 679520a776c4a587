/** `nightjar authority-key`: a new genesis authority for a production (`--no-dev`) ledger. */
import { resolve } from 'node:path';
import { UsageError } from '../args.js';
import { createAuthorityKey } from '../authority-key.js';
import { str, type Command } from '../command.js';

export const authorityKey: Command = {
  name: 'authority-key',
  summary: 'create the genesis authority key of a production ledger (for start --no-dev)',
  usage: `nightjar authority-key --out FILE

  --out FILE   where to create the authority key (0600; never overwritten): {admin_seed,
               fee_owner_commitment}, for \`nightjar start --no-dev --authority-key FILE\`.
               The fee owner's spending key goes to FILE.fee-owner (0600): move it offline.
  Prints the public side: the admin key for \`nightjar ledger --no-dev --genesis-admin\`, and the
  fee owner commitment for \`--fee-owner-commitment\`.`,
  options: { out: { type: 'string' } },
  async run({ out, values }) {
    const file = str(values, 'out');
    if (file === undefined) throw new UsageError('authority-key needs --out FILE');
    const path = resolve(file);
    const genesis = createAuthorityKey(path, `${path}.fee-owner`);
    out.result(
      { ...genesis, authority_key: path, fee_owner_key: `${path}.fee-owner` },
      `created ${path} (authority key) and ${path}.fee-owner (fee owner spending key: move it offline)\n` +
        `genesis admin:        ${genesis.admin}\nfee owner commitment: ${genesis.fee_owner_commitment}`,
    );
    return 0;
  },
};
