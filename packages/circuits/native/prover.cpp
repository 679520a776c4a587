// Groth16 over BN254, following the same arithmetic as snarkjs' groth16 prover so that the zkey's
// H points (which fold in snarkjs' Montgomery factors and the 1/Z(x) constant) apply unchanged.
#include "prover.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <chrono>
#include <functional>
#include <thread>

#include "msm.hpp"

namespace nj {

static Fq G1_B;
static Fq2 G2_B;
static Fr W28;  // 2^28-th root of unity, as ffjavascript derives it (nqr^t)

static void initCurvesOnce() {
  u64 three[4] = {3, 0, 0, 0};
  G1_B = Fq::fromStd(three);
  u64 nine[4] = {9, 0, 0, 0};
  Fq2 xi{Fq::fromStd(nine), Fq::one()};
  G2_B = Fq2{G1_B, Fq::zero()} * xi.inv();
  W28 = frRootOfUnity28();
}

void initCurves() {
  static std::once_flag once;
  std::call_once(once, initCurvesOnce);
}

namespace {

struct Reader {
  const uint8_t* p;
  size_t len, pos = 0;
  void need(size_t n) const {
    if (n > len || pos > len - n) throw ProverFailure("ZKEY_TRUNCATED", "zkey is truncated");
  }
  uint32_t u32() {
    need(4);
    uint32_t v;
    std::memcpy(&v, p + pos, 4);
    pos += 4;
    return v;
  }
  uint64_t u64v() {
    need(8);
    uint64_t v;
    std::memcpy(&v, p + pos, 8);
    pos += 8;
    return v;
  }
  void limbs(u64 out[4]) {
    need(32);
    std::memcpy(out, p + pos, 32);
    pos += 32;
  }
};

[[noreturn]] void bad(const std::string& msg) { throw ProverFailure("ZKEY_INVALID", msg); }

template <const FieldParams& P>
Fp<P> readMont(Reader& r, const char* what) {
  Fp<P> v;
  r.limbs(v.v);
  if (geq(v.v, P.p)) bad(std::string(what) + ": element not below the modulus");
  return v;
}

G1A readG1(Reader& r, const char* what) {
  G1A a{readMont<FQ>(r, what), readMont<FQ>(r, what), false};
  if (a.x.isZero() && a.y.isZero()) {
    a.inf = true;
    return a;
  }
  if (a.y.sqr() != a.x.sqr() * a.x + G1_B) bad(std::string(what) + ": G1 point not on the curve");
  return a;
}

G2A readG2(Reader& r, const char* what) {
  Fq2 x{readMont<FQ>(r, what), readMont<FQ>(r, what)};
  Fq2 y{readMont<FQ>(r, what), readMont<FQ>(r, what)};
  G2A a{x, y, false};
  if (x.isZero() && y.isZero()) {
    a.inf = true;
    return a;
  }
  if (y.sqr() != x.sqr() * x + G2_B) bad(std::string(what) + ": G2 point not on the twist");
  return a;
}

struct Section {
  size_t pos = 0, size = 0;
  bool present = false;
};

void runTasks(std::vector<std::function<void()>>& tasks, unsigned threads) {
  std::atomic<size_t> next{0};
  auto worker = [&]() {
    for (;;) {
      size_t i = next.fetch_add(1);
      if (i >= tasks.size()) return;
      tasks[i]();
    }
  };
  std::vector<std::thread> pool;
  unsigned extra = threads > 1 ? (unsigned)std::min<size_t>(threads - 1, tasks.size()) : 0;
  for (unsigned t = 0; t < extra; t++) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
}

// In-place radix-2 DIT NTT in natural order; roots = powers of the generator (n/2 of them).
void ntt(std::vector<Fr>& a, const std::vector<Fr>& roots) {
  const size_t n = a.size();
  bitReversePermute(a);
  for (size_t len = 2; len <= n; len <<= 1) {
    const size_t half = len >> 1, step = n / len;
    for (size_t i = 0; i < n; i += len) {
      for (size_t j = 0; j < half; j++) {
        Fr u = a[i + j];
        Fr v = j ? a[i + j + half] * roots[j * step] : a[i + j + half];
        a[i + j] = u + v;
        a[i + j + half] = u - v;
      }
    }
  }
}

void toBE(uint8_t* out, const Fq& v) {
  u64 s[4];
  v.toStd(s);
  for (int i = 0; i < 32; i++) out[i] = (uint8_t)(s[3 - i / 8] >> (8 * (7 - i % 8)));
}

// 64 random bytes -> uniform scalar mod r (standard form): (hi * 2^256 + lo) mod r.
void randomScalar(const uint8_t* bytes, u64 out[4]) {
  u64 lo[4], hi[4];
  std::memcpy(lo, bytes, 32);
  std::memcpy(hi, bytes + 32, 32);
  while (geq(lo, FR.p)) subRaw(lo, lo, FR.p);
  while (geq(hi, FR.p)) subRaw(hi, hi, FR.p);
  Fr r2{{FR.r2[0], FR.r2[1], FR.r2[2], FR.r2[3]}};
  Fr hiR = Fr{{hi[0], hi[1], hi[2], hi[3]}} * r2;  // standard-form hi * 2^256 mod r
  Fr sum = hiR + Fr{{lo[0], lo[1], lo[2], lo[3]}};
  std::memcpy(out, sum.v, 32);
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

ProvingKey* loadKey(const uint8_t* data, size_t len) {
  initCurves();
  Reader r{data, len};
  r.need(12);
  if (std::memcmp(data, "zkey", 4) != 0) throw ProverFailure("ZKEY_INVALID", "not a zkey file");
  r.pos = 4;
  uint32_t version = r.u32();
  if (version < 1 || version > 2) bad("unsupported zkey version");
  uint32_t nSections = r.u32();
  Section sec[11];
  for (uint32_t i = 0; i < nSections; i++) {
    uint32_t type = r.u32();
    uint64_t size = r.u64v();
    r.need(size);
    if (type >= 1 && type <= 10) {
      if (sec[type].present) bad("duplicated section");
      sec[type] = Section{r.pos, (size_t)size, true};
    }
    r.pos += size;
  }
  for (int t = 1; t <= 9; t++) {
    if (!sec[t].present) throw ProverFailure("ZKEY_TRUNCATED", "zkey misses section " + std::to_string(t));
  }
  auto open = [&](int t) {
    Reader s{data + sec[t].pos, sec[t].size};
    return s;
  };
  auto expectSize = [&](int t, uint64_t size) {
    if (sec[t].size != size) bad("section " + std::to_string(t) + " has the wrong size");
  };

  Reader h1 = open(1);
  if (h1.u32() != 1) throw ProverFailure("ZKEY_NOT_GROTH16", "zkey is not a groth16 key");

  std::unique_ptr<ProvingKey> key(new ProvingKey());
  ProvingKey& k = *key;
  Reader h = open(2);
  u64 q[4], rr[4];
  if (h.u32() != 32) bad("base field element size is not 32");
  h.limbs(q);
  if (h.u32() != 32) bad("scalar field element size is not 32");
  h.limbs(rr);
  if (std::memcmp(q, FQ.p, 32) != 0 || std::memcmp(rr, FR.p, 32) != 0) {
    throw ProverFailure("ZKEY_NOT_BN254", "zkey is not for BN254");
  }
  k.nVars = h.u32();
  k.nPublic = h.u32();
  k.domainSize = h.u32();
  if (k.nVars == 0 || k.nPublic >= k.nVars) bad("bad variable counts");
  if (k.domainSize < 2 || (k.domainSize & (k.domainSize - 1))) bad("domain size is not a power of two");
  while ((1u << k.power) < k.domainSize) k.power++;
  if (k.power > 27) bad("domain too large");
  k.alpha1 = readG1(h, "alpha1");
  k.beta1 = readG1(h, "beta1");
  k.beta2 = readG2(h, "beta2");
  readG2(h, "gamma2");
  k.delta1 = readG1(h, "delta1");
  k.delta2 = readG2(h, "delta2");
  if (h.pos != h.len) bad("header section has the wrong size");

  const uint64_t n = k.nVars, d = k.domainSize;
  Reader cs = open(4);
  uint32_t nCoef = cs.u32();
  expectSize(4, 4 + (uint64_t)nCoef * 44);
  for (uint32_t i = 0; i < nCoef; i++) {
    uint32_t m = cs.u32(), c = cs.u32(), s = cs.u32();
    Fr v = readMont<FR>(cs, "coefficient");
    if (m > 1 || c >= d || s >= n) bad("coefficient out of range");
    (m == 0 ? k.coefA : k.coefB).push_back(Coef{c, s, v});
  }
  expectSize(5, n * 64);
  expectSize(6, n * 64);
  expectSize(7, n * 128);
  expectSize(8, (n - k.nPublic - 1) * 64);
  expectSize(9, d * 64);
  auto g1s = [&](int t, std::vector<G1A>& out, uint64_t count, const char* what) {
    Reader s = open(t);
    out.reserve(count);
    for (uint64_t i = 0; i < count; i++) out.push_back(readG1(s, what));
  };
  g1s(5, k.A, n, "A");
  g1s(6, k.B1, n, "B1");
  g1s(8, k.C, n - k.nPublic - 1, "C");
  g1s(9, k.H, d, "H");
  Reader b2 = open(7);
  k.B2.reserve(n);
  for (uint64_t i = 0; i < n; i++) k.B2.push_back(readG2(b2, "B2"));

  // Domain generator w_n = W28^(2^(28-power)); coset shift w_2n (snarkjs' Fr.w[power+1]).
  Fr w2n = W28;
  for (uint32_t i = 0; i < 27 - k.power; i++) w2n = w2n.sqr();
  Fr wn = w2n.sqr();
  Fr wnInv = wn.inv();
  k.roots.resize(d / 2);
  k.invRoots.resize(d / 2);
  Fr a = Fr::one(), b = Fr::one();
  for (uint64_t i = 0; i < d / 2; i++) {
    k.roots[i] = a;
    k.invRoots[i] = b;
    a = a * wn;
    b = b * wnInv;
  }
  u64 dd[4] = {d, 0, 0, 0};
  k.nInv = Fr::fromStd(dd).inv();
  // shift[i] = w_2n^i / n: the inverse NTT's scaling folded into the coset shift.
  k.shift.resize(d);
  Fr s = k.nInv;
  for (uint64_t i = 0; i < d; i++) {
    k.shift[i] = s;
    s = s * w2n;
  }
  return key.release();
}

void prove(const ProvingKey& k, const uint8_t* witness, size_t witnessLen, const uint8_t rand[128],
           unsigned threads, ProofOut& out, PhaseTimes* times) {
  auto t0 = std::chrono::steady_clock::now();
  if (threads < 1) threads = 1;
  if (witnessLen != (size_t)k.nVars * 32) {
    throw ProverFailure("WITNESS_LENGTH", "witness has " + std::to_string(witnessLen / 32) +
                                              " elements, the key needs " + std::to_string(k.nVars));
  }
  const size_t n = k.nVars, d = k.domainSize;
  std::vector<u64> wbuf(n * 4);
  std::memcpy(wbuf.data(), witness, n * 32);
  const Scalar* w = reinterpret_cast<const Scalar*>(wbuf.data());
  for (size_t i = 0; i < n; i++) {
    if (geq(w[i], FR.p)) throw ProverFailure("WITNESS_RANGE", "witness element " + std::to_string(i) + " is not below r");
  }
  // The witness' standard-form integers are used as Montgomery representations here, exactly as
  // snarkjs does (its H points compensate for the resulting constant factor).
  auto asFr = [&](uint32_t i) { return Fr{{w[i][0], w[i][1], w[i][2], w[i][3]}}; };

  std::vector<Fr> pa(d, Fr::zero()), pb(d, Fr::zero()), pc(d);
  for (const Coef& c : k.coefA) pa[c.row] = pa[c.row] + c.value * asFr(c.var);
  for (const Coef& c : k.coefB) pb[c.row] = pb[c.row] + c.value * asFr(c.var);
  for (size_t i = 0; i < d; i++) pc[i] = pa[i] * pb[i];
  if (times) times->build = since(t0);

  Msm<Fq> mA, mB1, mC, mH;
  Msm<Fq2> mB2;
  mA.plan(k.A.data(), w, n);
  mB1.plan(k.B1.data(), w, n);
  mB2.plan(k.B2.data(), w, n);
  mC.plan(k.C.data(), w + k.nPublic + 1, n - k.nPublic - 1);

  // Phase 1: the three polynomial chains, then every window of the witness MSMs.
  auto t1 = std::chrono::steady_clock::now();
  std::vector<std::function<void()>> tasks;
  for (std::vector<Fr>* p : {&pa, &pb, &pc}) {
    tasks.push_back([p, &k]() {
      ntt(*p, k.invRoots);
      for (size_t i = 0; i < p->size(); i++) (*p)[i] = (*p)[i] * k.shift[i];
      ntt(*p, k.roots);
    });
  }
  // Heaviest first (G2), so the tail of the queue is short G1 windows.
  for (unsigned j = 0; j < mB2.windows; j++) tasks.push_back([&mB2, j]() { mB2.runWindow(j); });
  for (Msm<Fq>* m : {&mA, &mB1, &mC}) {
    for (unsigned j = 0; j < m->windows; j++) tasks.push_back([m, j]() { m->runWindow(j); });
  }
  runTasks(tasks, threads);
  auto t2 = std::chrono::steady_clock::now();

  std::vector<u64> hbuf(d * 4);
  Scalar* hs = reinterpret_cast<Scalar*>(hbuf.data());
  for (size_t i = 0; i < d; i++) (pa[i] * pb[i] - pc[i]).toStd(hs[i]);
  mH.plan(k.H.data(), hs, d);
  tasks.clear();
  for (unsigned j = 0; j < mH.windows; j++) tasks.push_back([&mH, j]() { mH.runWindow(j); });
  runTasks(tasks, threads);
  if (times) {
    times->ntt = std::chrono::duration<double>(t2 - t1).count();
    times->msm = since(t2);
  }

  u64 rs[4], ss[4];
  randomScalar(rand, rs);
  randomScalar(rand + 64, ss);
  Fr rF = Fr::fromStd(rs), sF = Fr::fromStd(ss);
  u64 negRS[4];
  (rF * sF).neg().toStd(negRS);

  G1J d1 = G1J::fromAffine(k.delta1);
  G1J piA = mA.combine();
  piA.addAffine(k.alpha1);
  piA.add(d1.mul(rs));
  G2J piB = mB2.combine();
  piB.addAffine(k.beta2);
  piB.add(G2J::fromAffine(k.delta2).mul(ss));
  G1J pib1 = mB1.combine();
  pib1.addAffine(k.beta1);
  pib1.add(d1.mul(ss));
  G1J piC = mC.combine();
  piC.add(mH.combine());
  piC.add(piA.mul(ss));
  piC.add(pib1.mul(rs));
  piC.add(d1.mul(negRS));

  G1A a = piA.toAffine(), c = piC.toAffine();
  G2A b = piB.toAffine();
  if (a.inf || b.inf || c.inf) throw ProverFailure("PROOF_DEGENERATE", "a proof point is at infinity");
  toBE(out.proof + 0, a.x);
  toBE(out.proof + 32, a.y);
  toBE(out.proof + 64, b.x.c1);
  toBE(out.proof + 96, b.x.c0);
  toBE(out.proof + 128, b.y.c1);
  toBE(out.proof + 160, b.y.c0);
  toBE(out.proof + 192, c.x);
  toBE(out.proof + 224, c.y);
  if (times) times->total = since(t0);
}

}  // namespace nj
