/** An order built, proved and (unless asked not to) signed: everything but sending it. */
import { randomBytes } from 'node:crypto';
import { marketToFields, orderIdToField, type OrderTerms as DigestOrderTerms } from '@nightjar/crypto';
import {
  bytesToHex,
  encodeOrderBody,
  fieldToHex,
  hexToBytes,
  orderSigningFields,
  parseAddress,
  signCanonical,
  type PlaceOrderBody,
  type Side,
} from '@nightjar/protocol';
import type { Client } from '../client.js';
import type { WalletNote } from '../wallet/wallet.js';
import { orderNoteWitness } from '../notes/note-witness.js';
import { proveInTurn } from '../core/proof-turns.js';
import { resolveExpirySlot } from './expiry.js';
import { orderNote } from './order-note.js';
import {
  orderTerms,
  type OrderParameters,
  type OrderTerms,
  type PrepareOptions,
  type PreparedOrder,
} from './order-terms.js';
import { NIGHTJAR_ERROR__PARAMETER, NIGHTJAR_ERROR__PROOF, NightjarError } from '../core/errors/index.js';

/** The order digest's terms (DESIGN 3) of an order about to be built: what its input proof binds. */
function digestTerms(terms: OrderTerms, side: Side, expirySlot: bigint, orderId: string): DigestOrderTerms {
  const market = parseAddress(terms.inst.market_id);
  if (market === undefined)
    throw new NightjarError(NIGHTJAR_ERROR__PARAMETER, {
      detail: `market id ${terms.inst.market_id} is not an address`,
    });
  return {
    ...marketToFields(market),
    side: side === 'bid' ? 0 : 1,
    amount: terms.amount,
    priceLimit: terms.priceLimit,
    minFillSize: terms.minFill,
    expirySlot,
    orderId: orderIdToField(hexToBytes(orderId)),
  };
}

/**
 * The order's VALID_INPUT proof, made when the prover has a free worker (`proveInTurn`): its
 * `expiry_slot` is read from the venue's clock then, after the note (a split made for the order)
 * and any wait behind other proofs, so an order asked to live 30 s still has them when proving
 * starts. The expiry is a proof input (the order digest binds it): it cannot be set after.
 */
async function proveOrderInput(
  client: Client,
  terms: OrderTerms,
  params: OrderParameters,
  note: WalletNote,
  orderId: string,
): Promise<{ expirySlot: bigint; merkleRoot: bigint; proof: Uint8Array }> {
  const prover = client.prover();
  return proveInTurn(prover, async () => {
    const [expirySlot, witness] = await Promise.all([
      resolveExpirySlot(client, params.expiry),
      client.engineFor(params.symbol).then((engine) => orderNoteWitness(client, note, engine)),
    ]);
    try {
      // The proof binds this order's own terms: it backs no other order (1011).
      const r = await prover.proveValidInputV2({
        ...witness.note,
        path: witness.path,
        merkleRoot: witness.merkleRoot,
        order: digestTerms(terms, params.side, expirySlot, orderId),
      });
      return { expirySlot, merkleRoot: witness.merkleRoot, proof: r.proof };
    } catch (err) {
      throw new NightjarError(
        NIGHTJAR_ERROR__PROOF,
        { detail: `VALID_INPUT proof failed: ${(err as Error).message}` },
        { cause: err },
      );
    }
  });
}

/** Takes a durable arrival nonce for `body` and signs it with the wallet's trading key. */
export function signOrder(client: Client, body: PlaceOrderBody): PlaceOrderBody {
  const trading = client.wallet.keys.trading;
  body.trading_key = trading.publicKey;
  body.arrival_nonce = client.nonces.next(trading.publicKey, 'arrival');
  body.trading_key_signature = signCanonical(trading.seed, encodeOrderBody(orderSigningFields(body)));
  return body;
}

/** `buildOrder`, optionally leaving the nonce and signature for later (`placeOrder` signs under the send lock). */
export async function prepareOrder(
  client: Client,
  params: OrderParameters,
  options: PrepareOptions = {},
): Promise<PreparedOrder> {
  const wallet = client.wallet;
  let terms: OrderTerms;
  try {
    terms = await orderTerms(client, params);
  } catch (err) {
    if (options.held) wallet.reserved.delete(options.held.commitment);
    throw err;
  }
  const { amount, priceLimit, minFill } = terms;
  const { note, collateralAmount, split } = await orderNote(client, terms, params, options);
  try {
    const orderId = params.orderId ?? bytesToHex(randomBytes(16));
    const [{ expirySlot, merkleRoot, proof }, session] = await Promise.all([
      proveOrderInput(client, terms, params, note, orderId),
      // Signed for the boot of the engine serving the market (verified before its id is trusted).
      client.engineFor(params.symbol).then((engine) => engine.bootSessionId()),
    ]);
    const trading = wallet.keys.trading;
    const body: PlaceOrderBody = {
      symbol: params.symbol,
      side: params.side,
      order_type: params.type ?? 'limit',
      amount,
      price_limit: priceLimit,
      min_fill_size: minFill,
      expiry_slot: expirySlot,
      order_id: orderId,
      arrival_nonce: 0n,
      note_commitment: note.commitment,
      ...(collateralAmount === undefined ? {} : { collateral_amount: collateralAmount }),
      owner_commitment: wallet.ownerCommitment,
      note_inner_hash: note.inner,
      merkle_root: fieldToHex(merkleRoot),
      valid_input_proof: bytesToHex(proof),
      tree_id: note.treeId,
      viewing_pubkey: wallet.viewingPublicKey,
      session_id: session,
      trading_key: trading.publicKey,
      trading_key_signature: '',
    };
    if (options.sign ?? true) signOrder(client, body);
    return split ? { body, note, split } : { body, note };
  } catch (err) {
    wallet.reserved.delete(note.commitment);
    throw err;
  }
}
