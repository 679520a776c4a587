// Pippenger multi-scalar multiplication, split into one task per window so that a proof's MSMs
// (and their windows) can be spread over any number of threads.
#pragma once
#include <vector>

#include "curve.hpp"

namespace nj {

using Scalar = u64[4];

inline unsigned digitAt(const u64 s[4], unsigned bit, unsigned c) {
  unsigned limb = bit / 64, off = bit % 64;
  if (limb >= 4) return 0;
  u64 v = s[limb] >> off;
  if (off + c > 64 && limb + 1 < 4) v |= s[limb + 1] << (64 - off);
  return (unsigned)(v & ((1ull << c) - 1));
}

inline unsigned bitLength(const u64 s[4]) {
  for (int i = 3; i >= 0; i--) {
    if (s[i]) return 64 * i + 64 - __builtin_clzll(s[i]);
  }
  return 0;
}

template <typename F>
struct Msm {
  const Affine<F>* bases = nullptr;
  const Scalar* scalars = nullptr;
  std::vector<uint32_t> idx;  // non-zero scalars on finite bases
  unsigned c = 1, windows = 0;
  std::vector<Jac<F>> windowSum;

  // Window from a cost model in field multiplications: a batched affine addition per non-zero
  // digit (~6M) and, per window, a mixed plus a full addition per bucket (~27M).
  void plan(const Affine<F>* b, const Scalar* s, size_t n) {
    bases = b;
    scalars = s;
    idx.clear();
    unsigned maxBits = 0;
    for (size_t i = 0; i < n; i++) {
      if (b[i].inf) continue;
      unsigned bl = bitLength(s[i]);
      if (bl == 0) continue;
      idx.push_back((uint32_t)i);
      if (bl > maxBits) maxBits = bl;
    }
    if (idx.empty()) { windows = 0; windowSum.clear(); return; }
    double best = 1e300;
    for (unsigned cc = 1; cc <= 16; cc++) {
      unsigned w = (maxBits + cc - 1) / cc;
      double cost = (double)w * (6.0 * (double)idx.size() + 27.0 * (double)(1u << cc));
      if (cost < best) { best = cost; c = cc; }
    }
    windows = (maxBits + c - 1) / c;
    windowSum.assign(windows, Jac<F>::infinity());
  }

  static constexpr unsigned BATCH = 256;

  // One window: buckets kept affine and filled with batched affine additions (one inversion per
  // BATCH additions). A point whose bucket is already in the current batch goes to that bucket's
  // Jacobian overflow instead (common for bit-valued witness wires, which all land in bucket 1).
  void runWindow(unsigned j) {
    const unsigned nb = 1u << c;
    std::vector<Affine<F>> bucket(nb, Affine<F>{F::zero(), F::zero(), true});
    std::vector<Jac<F>> over(nb, Jac<F>::infinity());
    std::vector<uint32_t> stamp(nb, 0);
    uint32_t cur = 1;
    uint32_t bIdx[BATCH], pIdx[BATCH];
    std::vector<F> den(BATCH), pre(BATCH);
    unsigned nBatch = 0, top = 0;

    auto flush = [&]() {
      if (!nBatch) return;
      pre[0] = den[0];
      for (unsigned k = 1; k < nBatch; k++) pre[k] = pre[k - 1] * den[k];
      F inv = pre[nBatch - 1].inv();
      for (int k = (int)nBatch - 1; k >= 0; k--) {
        F ik = k ? inv * pre[k - 1] : inv;
        if (k) inv = inv * den[k];
        Affine<F>& B = bucket[bIdx[k]];
        const Affine<F>& P = bases[pIdx[k]];
        F lambda = (P.y - B.y) * ik;
        F x3 = lambda.sqr() - B.x - P.x;
        B.y = lambda * (B.x - x3) - B.y;
        B.x = x3;
      }
      nBatch = 0;
      cur++;
    };

    const unsigned bit = j * c;
    for (uint32_t i : idx) {
      unsigned d = digitAt(scalars[i], bit, c);
      if (!d) continue;
      if (d > top) top = d;
      const Affine<F>& P = bases[i];
      Affine<F>& B = bucket[d];
      if (stamp[d] == cur) {
        over[d].addAffine(P);
        continue;
      }
      if (B.inf) {
        B = P;
        continue;
      }
      if (B.x == P.x) {
        // Doubling or cancelling: rare, done the slow way.
        Jac<F> t = Jac<F>::fromAffine(B);
        t.addAffine(P);
        B = t.toAffine();
        continue;
      }
      stamp[d] = cur;
      bIdx[nBatch] = d;
      pIdx[nBatch] = i;
      den[nBatch] = P.x - B.x;
      if (++nBatch == BATCH) flush();
    }
    flush();

    Jac<F> run = Jac<F>::infinity(), acc = Jac<F>::infinity();
    for (unsigned k = top; k >= 1; k--) {
      run.addAffine(bucket[k]);
      run.add(over[k]);
      acc.add(run);
    }
    windowSum[j] = acc;
  }

  Jac<F> combine() const {
    Jac<F> r = Jac<F>::infinity();
    for (int j = (int)windows - 1; j >= 0; j--) {
      for (unsigned k = 0; k < c; k++) r = r.dbl();
      r.add(windowSum[j]);
    }
    return r;
  }
};

}  // namespace nj
