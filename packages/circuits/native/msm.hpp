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
  std::vector<uint32_t> idx;   // scalars > 1 on finite bases
  std::vector<uint32_t> ones;  // scalars == 1 (bit-valued wires): summed once, in window 0
  unsigned c = 1, windows = 0;
  std::vector<Jac<F>> windowSum;

  // Window from a cost model in field multiplications: a batched affine addition per non-zero
  // digit (~6M) and, per window, a mixed plus a full addition per bucket (~27M).
  void plan(const Affine<F>* b, const Scalar* s, size_t n) {
    bases = b;
    scalars = s;
    idx.clear();
    ones.clear();
    unsigned maxBits = 0;
    for (size_t i = 0; i < n; i++) {
      if (b[i].inf) continue;
      unsigned bl = bitLength(s[i]);
      if (bl == 0) continue;
      if (bl == 1) {
        ones.push_back((uint32_t)i);
        if (maxBits == 0) maxBits = 1;
        continue;
      }
      idx.push_back((uint32_t)i);
      if (bl > maxBits) maxBits = bl;
    }
    if (maxBits == 0) { windows = 0; windowSum.clear(); return; }
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
    // Points whose bucket was busy in the current batch wait for the next one (up to a bound;
    // beyond it they go to the bucket's Jacobian overflow).
    std::vector<uint32_t> pending, retry;

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
    auto insert = [&](uint32_t i) {
      const unsigned d = digitAt(scalars[i], bit, c);
      const Affine<F>& P = bases[i];
      Affine<F>& B = bucket[d];
      if (stamp[d] == cur) {
        if (pending.size() < 4 * BATCH) pending.push_back(i);
        else over[d].addAffine(P);
        return;
      }
      if (B.inf) {
        B = P;
        return;
      }
      if (B.x == P.x) {
        // Doubling or cancelling: rare, done the slow way.
        Jac<F> t = Jac<F>::fromAffine(B);
        t.addAffine(P);
        B = t.toAffine();
        return;
      }
      stamp[d] = cur;
      bIdx[nBatch] = d;
      pIdx[nBatch] = i;
      den[nBatch] = P.x - B.x;
      nBatch++;
    };
    auto flushAndRetry = [&]() {
      flush();
      retry.swap(pending);
      pending.clear();
      for (uint32_t r : retry) {
        insert(r);
        if (nBatch == BATCH) flush();
      }
      retry.clear();
    };
    for (uint32_t i : idx) {
      unsigned d = digitAt(scalars[i], bit, c);
      if (!d) continue;
      if (d > top) top = d;
      insert(i);
      if (nBatch == BATCH) flushAndRetry();
    }
    while (nBatch || !pending.empty()) flushAndRetry();

    Jac<F> run = Jac<F>::infinity(), acc = Jac<F>::infinity();
    for (unsigned k = top; k >= 1; k--) {
      run.addAffine(bucket[k]);
      run.add(over[k]);
      acc.add(run);
    }
    if (j == 0 && !ones.empty()) acc.add(sumAffine(bases, ones));
    windowSum[j] = acc;
  }

  // Sum of points by pairwise batched affine additions (one inversion per round).
  static Jac<F> sumAffine(const Affine<F>* pts, const std::vector<uint32_t>& which) {
    std::vector<Affine<F>> v;
    v.reserve(which.size());
    for (uint32_t i : which) v.push_back(pts[i]);
    Jac<F> slow = Jac<F>::infinity();  // pairs with equal x (doubling / cancelling)
    std::vector<F> den, pre;
    while (v.size() > 1) {
      const size_t half = v.size() / 2;
      den.assign(half, F::one());
      pre.resize(half);
      std::vector<char> ok(half, 1);
      for (size_t k = 0; k < half; k++) {
        const Affine<F>& a = v[2 * k];
        const Affine<F>& b = v[2 * k + 1];
        if (a.x == b.x) ok[k] = 0;
        else den[k] = b.x - a.x;
      }
      F acc = F::one();
      for (size_t k = 0; k < half; k++) { pre[k] = acc; acc = acc * den[k]; }
      F inv = acc.inv();
      std::vector<Affine<F>> next;
      next.reserve(half + 1);
      std::vector<F> invs(half);
      for (size_t k = half; k-- > 0;) { invs[k] = inv * pre[k]; inv = inv * den[k]; }
      for (size_t k = 0; k < half; k++) {
        const Affine<F>& a = v[2 * k];
        const Affine<F>& b = v[2 * k + 1];
        if (!ok[k]) {
          slow.addAffine(a);
          slow.addAffine(b);
          continue;
        }
        F lambda = (b.y - a.y) * invs[k];
        F x3 = lambda.sqr() - a.x - b.x;
        next.push_back(Affine<F>{x3, lambda * (a.x - x3) - a.y, false});
      }
      if (v.size() & 1) next.push_back(v.back());
      v.swap(next);
    }
    if (!v.empty()) slow.addAffine(v[0]);
    return slow;
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
