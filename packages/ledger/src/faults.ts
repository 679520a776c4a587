/**
 * Fault injection (dev only): the running configuration, validated before a change replaces any of
 * it, and the dice each transaction rolls against it.
 */
import { RPC_ERRORS, RpcError, NO_FAULTS, type FaultConfig } from '@nightjar/protocol/ledger-client';

export class InjectedFaults {
  private config: FaultConfig = { ...NO_FAULTS };

  constructor(private readonly random: () => number) {}

  /** A copy of the running configuration. */
  get current(): FaultConfig {
    return { ...this.config };
  }

  get outage(): boolean {
    return this.config.outage;
  }

  get latencySlots(): number {
    return this.config.latencySlots;
  }

  get divergedShards(): number[] {
    return this.config.divergedShards;
  }

  /** Merges the given fields (validated first) into the configuration; returns the new one. */
  merge(faults: Partial<FaultConfig>): FaultConfig {
    this.config = { ...this.config, ...validateFaults(faults) };
    return this.current;
  }

  /** Rolls for a refusal: the transaction never lands. */
  rollReject(): boolean {
    return this.config.rejectRate > 0 && this.random() < this.config.rejectRate;
  }

  /** Rolls for a dropped reply: the transaction lands but the sender hears an error. */
  rollDrop(): boolean {
    return this.config.dropRate > 0 && this.random() < this.config.dropRate;
  }
}

export function validateFaults(f: Partial<FaultConfig>): Partial<FaultConfig> {
  const rate = (v: unknown) => typeof v === 'number' && v >= 0 && v <= 1;
  if (typeof f !== 'object' || f === null)
    throw new RpcError(RPC_ERRORS.invalidParams, 'faults must be an object');
  const out: Partial<FaultConfig> = {};
  for (const [k, v] of Object.entries(f)) {
    if (k === 'rejectRate' || k === 'dropRate') {
      if (!rate(v)) throw new RpcError(RPC_ERRORS.invalidParams, `${k} must be a number in [0, 1]`);
      out[k] = v as number;
    } else if (k === 'latencySlots') {
      if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 10_000)
        throw new RpcError(RPC_ERRORS.invalidParams, 'latencySlots must be an integer in 0..10000');
      out.latencySlots = v as number;
    } else if (k === 'outage') {
      if (typeof v !== 'boolean') throw new RpcError(RPC_ERRORS.invalidParams, 'outage must be a boolean');
      out.outage = v;
    } else if (k === 'divergedShards') {
      if (!Array.isArray(v) || v.length > 256 || !v.every((x) => Number.isInteger(x) && x >= 0 && x < 256)) {
        throw new RpcError(RPC_ERRORS.invalidParams, 'divergedShards must be an array of shard ids');
      }
      out.divergedShards = [...(v as number[])];
    } else throw new RpcError(RPC_ERRORS.invalidParams, `unknown fault ${k}`);
  }
  return out;
}
