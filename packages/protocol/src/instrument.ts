/**
 * The one instrument record: market metadata (DESIGN.md section 4) as the venue serves it on
 * `/instruments`, its type inferred from `instrumentCodec`, and the one conversion from the
 * ledger's market record (DESIGN.md section 6 `getMarkets`) into it.
 */
import { instrumentCodec } from './responses.js';
import { decimalU64String, object, required, type Infer } from './schema.js';

export type Instrument = Infer<typeof instrumentCodec>;

/** An instrument as the ledger's `getMarkets` serves it: u64 fields as decimal strings. */
export type InstrumentRecord = {
  [K in keyof Instrument]: Instrument[K] extends bigint ? string : Instrument[K];
};

const u64Text = () => required(decimalU64String());
/** The instrument codec, reading the u64 fields from decimal strings. */
const instrumentRecordCodec = object({
  ...instrumentCodec.props,
  price_scale: u64Text(),
  tick_size: u64Text(),
  min_order_size: u64Text(),
  fee_bps: u64Text(),
});

/** The ledger's market record as the venue's instrument, checked by the instrument codec. */
export function instrumentFromRecord(record: InstrumentRecord): Instrument {
  return instrumentRecordCodec.parse(record);
}
