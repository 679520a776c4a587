/** The block a per-address limit counts a client under (engine and ledger alike). */
import { isIPv4, isIPv6 } from 'node:net';

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The 8 groups of an IPv6 address, or undefined for forms not worth normalising (embedded IPv4). */
function ipv6Groups(address: string): string[] | undefined {
  if (address.includes('.')) return undefined;
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  return [...head, ...Array<string>(missing).fill('0'), ...tail];
}

/**
 * What a per-address limit counts under: the IPv4 address (an IPv4-mapped IPv6 one too), or the
 * IPv6 address's /64, the block one subscriber usually holds, so rotating addresses inside it
 * gains nothing. The engine's limits, the stream's anonymous budget and the ledger's admission and
 * read budget all count by it.
 */
export function addressKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const withoutZone = address.split('%')[0]!;
  const mapped = MAPPED_IPV4.exec(withoutZone);
  if (mapped) return mapped[1]!;
  if (isIPv4(withoutZone) || !isIPv6(withoutZone)) return withoutZone;
  const groups = ipv6Groups(withoutZone);
  if (!groups) return withoutZone.toLowerCase();
  return groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')
    .concat('::/64');
}
