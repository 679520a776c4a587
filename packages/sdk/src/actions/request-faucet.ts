import type { Client } from '../client.js';
import { describeAmount } from '../core/utils/asset-registry.js';
import { parseUnits } from '../core/utils/decimal.js';
import { ledgerRpcCode } from '../core/utils/typed-ledger.js';
import { assetParameter } from '../core/assets.js';
import {
  isNightjarError,
  LEDGER_ERROR_CODES,
  NIGHTJAR_ERROR__FAUCET_REFUSED,
  NIGHTJAR_ERROR__FAUCET_UNAVAILABLE,
  NIGHTJAR_ERROR__PARAMETER,
  NightjarError,
} from '../core/errors/index.js';

/** What to draw from a dev ledger's faucet. */
export interface RequestFaucetParameters {
  /** The asset: a symbol (`'USDC'`, any case) or a mint (Base58). Or give `mint`. */
  asset?: string;
  mint?: string;
  /** Decimal string in human units (`'200'`), or a bigint of atomic units. */
  amount: string | bigint;
  /** Ledger address credited (Base58); default the wallet's funding account, which deposits. */
  owner?: string;
}

/** The airdrop's signature and what it credited. */
export interface RequestFaucetReturnType {
  signature: string;
  owner: string;
  mint: string;
  /** Atomic units. */
  amount: bigint;
}

/**
 * Credits a ledger account (default: the wallet's funding account) with tokens from the dev
 * ledger's faucet (`requestAirdrop`), ready for `deposit`. Dev venues only: a production ledger
 * (`nightjar start --no-dev`) has none and answers `FAUCET_UNAVAILABLE`; an
 * unreachable ledger is `FAUCET_UNAVAILABLE` too (`retryable`), a refused request `FAUCET_REFUSED`.
 *
 * @example
 * await requestFaucet(client, { asset: 'USDC', amount: '200' });
 * await deposit(client, { asset: 'USDC', amount: '200' });
 */
export async function requestFaucet(
  client: Client,
  params: RequestFaucetParameters,
): Promise<RequestFaucetReturnType> {
  const asset = await assetParameter(client, params, 'requestFaucet');
  const amount =
    typeof params.amount === 'bigint' ? params.amount : parseUnits(params.amount, asset.decimals);
  if (amount <= 0n)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: 'a faucet request must be positive: give an amount above 0',
    });
  const owner = params.owner ?? client.wallet.keys.funding.address;
  const what = describeAmount(asset.mint, amount);
  try {
    const { signature } = await client.ledger.requestAirdrop({
      owner,
      mint: asset.mint,
      amount: amount.toString(),
    });
    return { signature, owner, mint: asset.mint, amount };
  } catch (err) {
    // The client's ledger throws typed errors carrying the JSON-RPC code; a bare one throws RpcError.
    const code = ledgerRpcCode(err);
    if (code === undefined) throw err;
    const options = { cause: err };
    // The ledger's own words (a typed error's message already names its fix).
    const detail = (
      (isNightjarError(err, LEDGER_ERROR_CODES) && err.cause instanceof Error ? err.cause : err) as Error
    ).message;
    switch (code) {
      case -32006:
        throw new NightjarError(
          NIGHTJAR_ERROR__FAUCET_UNAVAILABLE,
          {
            rpcCode: code,
            detail: `this ledger has no faucet (a production venue) to fund ${owner} with ${what}`,
          },
          options,
        );
      case -32005:
      case -32004:
        throw new NightjarError(
          NIGHTJAR_ERROR__FAUCET_UNAVAILABLE,
          {
            rpcCode: -32005,
            detail: `the ledger is unreachable (${detail})`,
          },
          options,
        );
      default:
        throw new NightjarError(
          NIGHTJAR_ERROR__FAUCET_REFUSED,
          { rpcCode: code, detail: `the faucet refused ${what} for ${owner}: ${detail}` },
          options,
        );
    }
  }
}

/** What `requestFaucet` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type RequestFaucetErrorType = NightjarError;
