/**
 * The sockets that have not logged in yet, counted apart from the authenticated cap: a small
 * budget per client address and one in total. Without it, one client holding hundreds of sockets
 * it never logs in (each lives up to the 10 s login deadline, and it re-opens them as they close)
 * fills the venue's socket cap and every trader's upgrade is refused.
 */
export type AnonymousRefusal = 'address' | 'total';

export class AnonymousBudget {
  private total = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(
    readonly maxTotal: number,
    readonly maxPerAddress: number,
  ) {}

  get size(): number {
    return this.total;
  }

  /** Why one more socket from `address` is refused, or undefined when it fits. */
  refusal(address: string): AnonymousRefusal | undefined {
    if ((this.byAddress.get(address) ?? 0) >= this.maxPerAddress) return 'address';
    if (this.total >= this.maxTotal) return 'total';
    return undefined;
  }

  add(address: string): void {
    this.byAddress.set(address, (this.byAddress.get(address) ?? 0) + 1);
    this.total++;
  }

  remove(address: string): void {
    const n = this.byAddress.get(address);
    if (n === undefined) return;
    if (n <= 1) this.byAddress.delete(address);
    else this.byAddress.set(address, n - 1);
    this.total--;
  }
}
