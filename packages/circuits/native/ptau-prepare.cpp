// Dev-ceremony tool: `snarkjs powersoftau prepare phase2` in native code, byte for byte.
//
//   ptau_prepare <contribution.ptau> <final.ptau> [threads]
//
// A phase-2-ready ptau adds, for every power p (and p = power+1 for tauG1), the Lagrange basis of
// the size-2^p domain: the inverse FFT of the first 2^p points of tauG1, tauG2, alphaTauG1 and
// betaTauG1. snarkjs does these group FFTs in WebAssembly and needs hours for power 15 on two
// cores; this takes minutes. scripts/ceremony.ts uses it when it is built and falls back to
// snarkjs otherwise; test/ptau-prepare.test.ts checks both give the same file.
//
// The input is the ceremony's own file, but it is still parsed defensively (sizes, counts).
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "curve.hpp"

using namespace nj;

namespace {

struct Section {
  uint64_t pos, size;
};

[[noreturn]] void fail(const std::string& msg) { throw std::runtime_error(msg); }

std::vector<uint8_t> readFile(const char* path) {
  FILE* f = std::fopen(path, "rb");
  if (!f) fail(std::string("cannot open ") + path);
  std::vector<uint8_t> data;
  uint8_t chunk[1 << 16];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0) data.insert(data.end(), chunk, chunk + got);
  std::fclose(f);
  return data;
}

uint32_t u32At(const std::vector<uint8_t>& d, uint64_t pos) {
  if (pos + 4 > d.size()) fail("ptau is truncated");
  uint32_t v;
  std::memcpy(&v, d.data() + pos, 4);
  return v;
}

uint64_t u64At(const std::vector<uint8_t>& d, uint64_t pos) {
  if (pos + 8 > d.size()) fail("ptau is truncated");
  uint64_t v;
  std::memcpy(&v, d.data() + pos, 8);
  return v;
}

// The binfile layout of @iden3/binfileutils: magic, version, section count, then per section
// (id u32, size u64, bytes).
std::map<uint32_t, Section> readSections(const std::vector<uint8_t>& d) {
  if (d.size() < 12 || std::memcmp(d.data(), "ptau", 4) != 0) fail("not a ptau file");
  const uint32_t n = u32At(d, 8);
  std::map<uint32_t, Section> out;
  uint64_t pos = 12;
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t id = u32At(d, pos);
    const uint64_t size = u64At(d, pos + 4);
    pos += 12;
    if (size > d.size() - pos) fail("ptau section runs past the end of the file");
    if (out.count(id)) fail("ptau has a section twice");
    out[id] = Section{pos, size};
    pos += size;
  }
  return out;
}

template <typename F>
constexpr size_t pointBytes() {
  return sizeof(F) * 2;
}

template <typename F>
Affine<F> loadPoint(const uint8_t* p) {
  Affine<F> a;
  std::memcpy(&a.x, p, sizeof(F));
  std::memcpy(&a.y, p + sizeof(F), sizeof(F));
  a.inf = a.x.isZero() && a.y.isZero();
  return a;
}

template <typename F>
void storePoint(uint8_t* p, const Affine<F>& a) {
  if (a.inf) {
    std::memset(p, 0, pointBytes<F>());
    return;
  }
  std::memcpy(p, &a.x, sizeof(F));
  std::memcpy(p + sizeof(F), &a.y, sizeof(F));
}

// Width-4 wNAF scalar multiplication: each twiddle is used once, so no table is worth more.
template <typename F>
Jac<F> mulScalar(const Jac<F>& p, const u64 e[4]) {
  int8_t naf[260];
  int len = 0;
  u64 k[5] = {e[0], e[1], e[2], e[3], 0};
  auto nonZero = [&]() { return (k[0] | k[1] | k[2] | k[3] | k[4]) != 0; };
  while (nonZero()) {
    int d = 0;
    if (k[0] & 1) {
      d = (int)(k[0] & 15);
      if (d >= 8) d -= 16;
      // k -= d (d odd, |d| < 8): a small add or subtract with carry through the limbs.
      if (d > 0) {
        u64 borrow = (u64)d;
        for (int i = 0; i < 5 && borrow; i++) {
          u64 old = k[i];
          k[i] -= borrow;
          borrow = old < borrow ? 1 : 0;
        }
      } else {
        u64 carry = (u64)(-d);
        for (int i = 0; i < 5 && carry; i++) {
          k[i] += carry;
          carry = k[i] < carry ? 1 : 0;
        }
      }
    }
    naf[len++] = (int8_t)d;
    for (int i = 0; i < 4; i++) k[i] = (k[i] >> 1) | (k[i + 1] << 63);
    k[4] >>= 1;
  }
  Jac<F> odd[4];
  odd[0] = p;
  Jac<F> twice = p.dbl();
  for (int i = 1; i < 4; i++) {
    odd[i] = odd[i - 1];
    odd[i].add(twice);
  }
  Jac<F> r = Jac<F>::infinity();
  for (int i = len - 1; i >= 0; i--) {
    r = r.dbl();
    const int d = naf[i];
    if (d > 0) r.add(odd[(d - 1) / 2]);
    else if (d < 0) r.add(odd[(-d - 1) / 2].neg());
  }
  return r;
}

// Runs body(begin, end) over [0, n) split across threads (one thread for small n).
template <typename Body>
void parallelFor(size_t n, unsigned threads, Body body) {
  if (threads <= 1 || n < 256) {
    body(0, n);
    return;
  }
  std::vector<std::thread> pool;
  const size_t per = (n + threads - 1) / threads;
  for (unsigned t = 1; t < threads; t++) {
    const size_t b = t * per, e = std::min(n, b + per);
    if (b < e) pool.emplace_back([=]() { body(b, e); });
  }
  body(0, std::min(n, per));
  for (auto& th : pool) th.join();
}

struct Twiddles {
  size_t maxN = 1;
  std::vector<std::array<u64, 4>> inv;  // w_maxN^-k in standard form, k < maxN/2
};

Twiddles makeTwiddles(uint32_t maxPower) {
  Twiddles t;
  t.maxN = (size_t)1 << maxPower;
  Fr w = frRootOfUnity28();
  for (uint32_t i = 0; i < 28 - maxPower; i++) w = w.sqr();
  const Fr wInv = w.inv();
  t.inv.resize(t.maxN / 2);
  Fr acc = Fr::one();
  for (size_t k = 0; k < t.maxN / 2; k++) {
    acc.toStd(t.inv[k].data());
    acc = acc * wInv;
  }
  return t;
}

// In place: a <- (1/n) * DFT_{w^-1}(a), the Lagrange basis of the size-n domain.
template <typename F>
void inverseFft(std::vector<Jac<F>>& a, const Twiddles& tw, unsigned threads) {
  const size_t n = a.size();
  bitReversePermute(a);
  for (size_t len = 2; len <= n; len <<= 1) {
    const size_t half = len >> 1, step = tw.maxN / len;
    parallelFor(n / 2, threads, [&](size_t b, size_t e) {
      for (size_t x = b; x < e; x++) {
        const size_t j = x % half, i = (x / half) * len + j;
        Jac<F> v = j ? mulScalar(a[i + half], tw.inv[j * step].data()) : a[i + half];
        Jac<F> u = a[i];
        a[i].add(v);
        u.add(v.neg());
        a[i + half] = u;
      }
    });
  }
  u64 nn[4] = {(u64)n, 0, 0, 0};
  u64 nInv[4];
  Fr::fromStd(nn).inv().toStd(nInv);
  if (n > 1) parallelFor(n, threads, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; i++) a[i] = mulScalar(a[i], nInv);
    });
}

// Jacobian -> affine with one inversion per thread chunk (Montgomery's trick).
template <typename F>
void toAffine(const std::vector<Jac<F>>& in, std::vector<Affine<F>>& out, unsigned threads) {
  out.resize(in.size());
  parallelFor(in.size(), threads, [&](size_t b, size_t e) {
    std::vector<F> prefix(e - b);
    F acc = F::one();
    for (size_t i = b; i < e; i++) {
      prefix[i - b] = acc;
      if (!in[i].isInf()) acc = acc * in[i].Z;
    }
    F inv = acc.inv();
    for (size_t i = e; i-- > b;) {
      if (in[i].isInf()) {
        out[i] = Affine<F>{F::zero(), F::zero(), true};
        continue;
      }
      const F zi = inv * prefix[i - b];
      inv = inv * in[i].Z;
      const F zi2 = zi.sqr();
      out[i] = Affine<F>{in[i].X * zi2, in[i].Y * zi2 * zi, false};
    }
  });
}

struct Writer {
  FILE* f;
  void bytes(const void* p, size_t n) {
    if (std::fwrite(p, 1, n, f) != n) fail("write failed");
  }
  void u32(uint32_t v) { bytes(&v, 4); }
  void u64v(uint64_t v) { bytes(&v, 8); }
};

// One output section: the Lagrange bases of powers 0..maxPower of the first points of `src`.
template <typename F>
void writeLagrangeSection(Writer& w, uint32_t id, const std::vector<uint8_t>& d, const Section& src,
                          size_t available, uint32_t maxPower, const Twiddles& tw, unsigned threads) {
  constexpr size_t sz = pointBytes<F>();
  uint64_t total = 0;
  for (uint32_t p = 0; p <= maxPower; p++) total += ((uint64_t)1 << p) * sz;
  w.u32(id);
  w.u64v(total);
  std::vector<Jac<F>> pts;
  std::vector<Affine<F>> aff;
  std::vector<uint8_t> buf;
  for (uint32_t p = 0; p <= maxPower; p++) {
    const size_t n = (size_t)1 << p;
    pts.resize(n);
    // tauG1 has 2^(power+1) - 1 points: its top power reads one fewer and ends with infinity.
    for (size_t i = 0; i < n; i++) {
      pts[i] = i < available ? Jac<F>::fromAffine(loadPoint<F>(d.data() + src.pos + i * sz))
                             : Jac<F>::infinity();
    }
    inverseFft(pts, tw, threads);
    toAffine(pts, aff, threads);
    buf.resize(n * sz);
    for (size_t i = 0; i < n; i++) storePoint(buf.data() + i * sz, aff[i]);
    w.bytes(buf.data(), buf.size());
    std::fprintf(stderr, "ptau_prepare: section %u power %u done\n", id, p);
  }
}

void run(const char* inPath, const char* outPath, unsigned threads) {
  const std::vector<uint8_t> d = readFile(inPath);
  const auto sections = readSections(d);
  for (uint32_t id = 1; id <= 7; id++)
    if (!sections.count(id)) fail("ptau lacks section " + std::to_string(id) + " (not a contribution file?)");
  const Section h = sections.at(1);
  if (h.size != 4 + 32 + 4 + 4 || u32At(d, h.pos) != 32) fail("ptau header is not bn128's");
  if (std::memcmp(d.data() + h.pos + 4, FQ.p, 32) != 0) fail("ptau curve is not bn128");
  const uint32_t power = u32At(d, h.pos + 36);
  // snarkjs writes a fresh header whose ceremony power is the power itself: copying section 1 is
  // the same bytes only then.
  if (u32At(d, h.pos + 40) != power) fail("ptau ceremony power differs from its power");
  if (power < 1 || power + 1 > 28) fail("ptau power out of range");
  const size_t n = (size_t)1 << power;
  if (sections.at(2).size != (2 * n - 1) * 64 || sections.at(3).size != n * 128 ||
      sections.at(4).size != n * 64 || sections.at(5).size != n * 64) {
    fail("ptau point sections do not match its power");
  }

  FILE* f = std::fopen(outPath, "wb");
  if (!f) fail(std::string("cannot create ") + outPath);
  Writer w{f};
  w.bytes("ptau", 4);
  w.u32(1);
  w.u32(11);
  for (uint32_t id = 1; id <= 7; id++) {
    const Section s = sections.at(id);
    w.u32(id);
    w.u64v(s.size);
    w.bytes(d.data() + s.pos, s.size);
  }
  const Twiddles tw = makeTwiddles(power + 1);
  writeLagrangeSection<Fq>(w, 12, d, sections.at(2), 2 * n - 1, power + 1, tw, threads);
  writeLagrangeSection<Fq2>(w, 13, d, sections.at(3), n, power, tw, threads);
  writeLagrangeSection<Fq>(w, 14, d, sections.at(4), n, power, tw, threads);
  writeLagrangeSection<Fq>(w, 15, d, sections.at(5), n, power, tw, threads);
  if (std::fclose(f) != 0) fail("closing the output failed");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: ptau_prepare <contribution.ptau> <final.ptau> [threads]\n");
    return 2;
  }
  unsigned threads = argc > 3 ? (unsigned)std::atoi(argv[3]) : std::thread::hardware_concurrency();
  if (threads < 1) threads = 1;
  try {
    run(argv[1], argv[2], threads);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ptau_prepare: %s\n", e.what());
    std::remove(argv[2]);
    return 1;
  }
  return 0;
}
