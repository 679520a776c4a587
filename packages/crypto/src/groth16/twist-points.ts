/**
 * Points on the BN254 twist E'(Fp2): y^2 = x^3 + 3/(9 + u), found by trying x = i + u. Almost all
 * of them lie outside the order-r subgroup G2, which is what the G2 subgroup check's self-test at
 * init needs, and what the tests need to forge proofs with a B outside G2. Need mcl initialised.
 */
import mcl from 'mcl-wasm';

/** The twist points with x = i + u for i = start, start + 1, … below `end`, where x^3 + b' is a square. */
function* twistPointsFrom(start: number, end: number): Generator<mcl.G2> {
  const three = new mcl.Fp2();
  three.setInt(3, 0);
  const xi = new mcl.Fp2();
  xi.setInt(9, 1);
  const twistB = mcl.div(three, xi);
  const one = new mcl.Fp2();
  one.setInt(1, 0);
  for (let i = start; i < end; i++) {
    const x = new mcl.Fp2();
    x.setInt(i, 1);
    const [ok, y] = mcl.squareRoot(mcl.add(mcl.mul(mcl.sqr(x), x), twistB));
    if (!ok) continue;
    const g = new mcl.G2();
    g.setX(x);
    g.setY(y);
    g.setZ(one);
    yield g;
  }
}

/** The first `count` twist points with x = i + u, i >= start (in G2 or not). */
export function twistPoints(count: number, start = 1): mcl.G2[] {
  const out: mcl.G2[] = [];
  if (count <= 0) return out;
  for (const g of twistPointsFrom(start, Number.POSITIVE_INFINITY)) {
    out.push(g);
    if (out.length === count) break;
  }
  return out;
}

/** Up to `count` twist points outside G2, trying x = i + u for i from 1 below `end`. */
export function pointsOutsideG2(count: number, end = 200): mcl.G2[] {
  const out: mcl.G2[] = [];
  if (count <= 0) return out;
  for (const g of twistPointsFrom(1, end)) {
    if (g.isValidOrder()) continue;
    out.push(g);
    if (out.length === count) break;
  }
  return out;
}

/** [k]q by plain double-and-add with mcl's group law: exact for any point on the twist, in G2 or not. */
export function mulG2DoubleAndAdd(q: mcl.G2, k: bigint): mcl.G2 {
  let acc = new mcl.G2();
  for (let i = k.toString(2).length - 1; i >= 0; i--) {
    acc = mcl.dbl(acc);
    if ((k >> BigInt(i)) & 1n) acc = mcl.add(acc, q);
  }
  return acc;
}
