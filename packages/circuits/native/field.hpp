// BN254 prime fields in 4x64-bit Montgomery form (R = 2^256), portable C++17 with unsigned __int128.
#pragma once
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace nj {

using u64 = uint64_t;
using u128 = unsigned __int128;

struct FieldParams {
  u64 p[4];
  u64 inv;  // -p^-1 mod 2^64
  u64 r2[4];  // R^2 mod p
  u64 one[4];  // R mod p
};

constexpr bool geqC(const u64 a[4], const u64 b[4]) {
  for (int i = 3; i >= 0; i--) {
    if (a[i] != b[i]) return a[i] > b[i];
  }
  return true;
}

// Montgomery constants derived from the modulus at compile time, so only p is typed in.
constexpr FieldParams makeParams(u64 p0, u64 p1, u64 p2, u64 p3) {
  FieldParams fp{{p0, p1, p2, p3}, 0, {0, 0, 0, 0}, {0, 0, 0, 0}};
  u64 x = 1;  // p^-1 mod 2^64 by Newton iteration
  for (int i = 0; i < 7; i++) x *= 2 - p0 * x;
  fp.inv = (u64)0 - x;
  u64 v[4] = {1, 0, 0, 0};
  for (int i = 0; i < 512; i++) {  // 2^i mod p by doubling
    u64 carry = 0;
    for (int k = 0; k < 4; k++) {
      u64 nv = (v[k] << 1) | carry;
      carry = v[k] >> 63;
      v[k] = nv;
    }
    if (carry || geqC(v, fp.p)) {
      u64 borrow = 0;
      for (int k = 0; k < 4; k++) {
        u128 d = (u128)v[k] - fp.p[k] - borrow;
        v[k] = (u64)d;
        borrow = (u64)(d >> 64) & 1;
      }
    }
    if (i == 255)
      for (int k = 0; k < 4; k++) fp.one[k] = v[k];
  }
  for (int k = 0; k < 4; k++) fp.r2[k] = v[k];
  return fp;
}

inline constexpr FieldParams FQ =
    makeParams(0x3c208c16d87cfd47ull, 0x97816a916871ca8dull, 0xb85045b68181585dull, 0x30644e72e131a029ull);
inline constexpr FieldParams FR =
    makeParams(0x43e1f593f0000001ull, 0x2833e84879b97091ull, 0xb85045b68181585dull, 0x30644e72e131a029ull);

inline bool geq(const u64 a[4], const u64 b[4]) {
  for (int i = 3; i >= 0; i--) {
    if (a[i] != b[i]) return a[i] > b[i];
  }
  return true;
}

inline u64 subRaw(u64 r[4], const u64 a[4], const u64 b[4]) {
  u64 borrow = 0;
  for (int i = 0; i < 4; i++) {
    u128 d = (u128)a[i] - b[i] - borrow;
    r[i] = (u64)d;
    borrow = (u64)(d >> 64) & 1;
  }
  return borrow;
}

inline u64 addRaw(u64 r[4], const u64 a[4], const u64 b[4]) {
  u64 carry = 0;
  for (int i = 0; i < 4; i++) {
    u128 s = (u128)a[i] + b[i] + carry;
    r[i] = (u64)s;
    carry = (u64)(s >> 64);
  }
  return carry;
}

template <const FieldParams& P>
struct Fp {
  u64 v[4];

  static Fp zero() { return Fp{{0, 0, 0, 0}}; }
  static Fp one() { Fp r; std::memcpy(r.v, P.one, 32); return r; }
  bool isZero() const { return (v[0] | v[1] | v[2] | v[3]) == 0; }
  bool operator==(const Fp& o) const {
    return v[0] == o.v[0] && v[1] == o.v[1] && v[2] == o.v[2] && v[3] == o.v[3];
  }
  bool operator!=(const Fp& o) const { return !(*this == o); }

  // Both moduli are below 2^254, so a + b never overflows 256 bits: one conditional subtraction.
  static inline __attribute__((always_inline)) Fp reduceOnce(u64 r0, u64 r1, u64 r2, u64 r3) {
    u128 d = (u128)r0 - P.p[0];
    u64 s0 = (u64)d;
    d = (u128)r1 - P.p[1] - ((u64)(d >> 64) & 1);
    u64 s1 = (u64)d;
    d = (u128)r2 - P.p[2] - ((u64)(d >> 64) & 1);
    u64 s2 = (u64)d;
    d = (u128)r3 - P.p[3] - ((u64)(d >> 64) & 1);
    u64 s3 = (u64)d;
    const u64 borrow = (u64)(d >> 64) & 1;  // r < p: keep r
    const u64 mask = (u64)0 - borrow;
    return Fp{{(r0 & mask) | (s0 & ~mask), (r1 & mask) | (s1 & ~mask), (r2 & mask) | (s2 & ~mask),
               (r3 & mask) | (s3 & ~mask)}};
  }
  friend inline __attribute__((always_inline)) Fp operator+(const Fp& a, const Fp& b) {
    u128 s = (u128)a.v[0] + b.v[0];
    u64 r0 = (u64)s;
    s = (u128)a.v[1] + b.v[1] + (u64)(s >> 64);
    u64 r1 = (u64)s;
    s = (u128)a.v[2] + b.v[2] + (u64)(s >> 64);
    u64 r2 = (u64)s;
    s = (u128)a.v[3] + b.v[3] + (u64)(s >> 64);
    return reduceOnce(r0, r1, r2, (u64)s);
  }
  friend inline __attribute__((always_inline)) Fp operator-(const Fp& a, const Fp& b) {
    u128 d = (u128)a.v[0] - b.v[0];
    u64 r0 = (u64)d;
    d = (u128)a.v[1] - b.v[1] - ((u64)(d >> 64) & 1);
    u64 r1 = (u64)d;
    d = (u128)a.v[2] - b.v[2] - ((u64)(d >> 64) & 1);
    u64 r2 = (u64)d;
    d = (u128)a.v[3] - b.v[3] - ((u64)(d >> 64) & 1);
    u64 r3 = (u64)d;
    const u64 mask = (u64)0 - ((u64)(d >> 64) & 1);  // borrowed: add p back
    u128 s = (u128)r0 + (P.p[0] & mask);
    r0 = (u64)s;
    s = (u128)r1 + (P.p[1] & mask) + (u64)(s >> 64);
    r1 = (u64)s;
    s = (u128)r2 + (P.p[2] & mask) + (u64)(s >> 64);
    r2 = (u64)s;
    r3 = r3 + (P.p[3] & mask) + (u64)(s >> 64);
    return Fp{{r0, r1, r2, r3}};
  }
  Fp neg() const { return isZero() ? *this : zero() - *this; }
  inline __attribute__((always_inline)) Fp dbl() const { return *this + *this; }

  // CIOS Montgomery multiplication, "no-carry" form: valid because p's top limb is below 2^62.
  friend inline __attribute__((always_inline)) Fp operator*(const Fp& a, const Fp& b) {
    u64 t[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
      const u64 bi = b.v[i];
      u128 s = (u128)a.v[0] * bi + t[0];
      u64 A = (u64)(s >> 64);
      t[0] = (u64)s;
      const u64 m = t[0] * P.inv;
      s = (u128)m * P.p[0] + t[0];
      u64 C = (u64)(s >> 64);
      for (int j = 1; j < 4; j++) {
        s = (u128)a.v[j] * bi + t[j] + A;
        A = (u64)(s >> 64);
        const u64 tj = (u64)s;
        s = (u128)m * P.p[j] + tj + C;
        C = (u64)(s >> 64);
        t[j - 1] = (u64)s;
      }
      t[3] = C + A;
    }
    return reduceOnce(t[0], t[1], t[2], t[3]);
  }
  inline __attribute__((always_inline)) Fp sqr() const { return *this * *this; }

  // Raw (standard-form) 256-bit integer -> Montgomery form. Input must be below p.
  static Fp fromStd(const u64 a[4]) {
    Fp x{{a[0], a[1], a[2], a[3]}};
    Fp r2{{P.r2[0], P.r2[1], P.r2[2], P.r2[3]}};
    return x * r2;
  }
  void toStd(u64 out[4]) const {
    Fp o{{1, 0, 0, 0}};
    Fp r = *this * o;
    std::memcpy(out, r.v, 32);
  }
  // x^e, e a standard 256-bit integer.
  Fp pow(const u64 e[4]) const {
    Fp r = one();
    for (int i = 255; i >= 0; i--) {
      r = r.sqr();
      if ((e[i / 64] >> (i % 64)) & 1) r = r * *this;
    }
    return r;
  }
  Fp inv() const {
    u64 e[4];
    u64 two[4] = {2, 0, 0, 0};
    subRaw(e, P.p, two);
    return pow(e);
  }
};

using Fq = Fp<FQ>;
using Fr = Fp<FR>;

// The 2^28-th root of unity of Fr exactly as ffjavascript derives it (nqr^t, r-1 = t * 2^28, t
// odd), so domains, NTTs and Lagrange bases agree with snarkjs' byte for byte.
inline Fr frRootOfUnity28() {
  u64 rm1[4], one[4] = {1, 0, 0, 0};
  subRaw(rm1, FR.p, one);
  u64 half[4], t[4];
  for (int i = 0; i < 4; i++) half[i] = (rm1[i] >> 1) | (i < 3 ? rm1[i + 1] << 63 : 0);
  for (int i = 0; i < 4; i++) t[i] = (rm1[i] >> 28) | (i < 3 ? rm1[i + 1] << 36 : 0);
  Fr minusOne = Fr::one().neg();
  u64 k[4] = {2, 0, 0, 0};
  Fr nqr = Fr::fromStd(k);
  while (nqr.pow(half) != minusOne) nqr = nqr + Fr::one();
  return nqr.pow(t);
}

// The bit-reversal permutation a radix-2 FFT of a power-of-two length starts from (in place).
template <typename T>
void bitReversePermute(std::vector<T>& a) {
  const size_t n = a.size();
  for (size_t i = 1, j = 0; i < n; i++) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
}

// Fq2 = Fq[u]/(u^2 + 1).
struct Fq2 {
  Fq c0, c1;
  static Fq2 zero() { return Fq2{Fq::zero(), Fq::zero()}; }
  static Fq2 one() { return Fq2{Fq::one(), Fq::zero()}; }
  bool isZero() const { return c0.isZero() && c1.isZero(); }
  bool operator==(const Fq2& o) const { return c0 == o.c0 && c1 == o.c1; }
  bool operator!=(const Fq2& o) const { return !(*this == o); }
  friend Fq2 operator+(const Fq2& a, const Fq2& b) { return Fq2{a.c0 + b.c0, a.c1 + b.c1}; }
  friend Fq2 operator-(const Fq2& a, const Fq2& b) { return Fq2{a.c0 - b.c0, a.c1 - b.c1}; }
  Fq2 neg() const { return Fq2{c0.neg(), c1.neg()}; }
  Fq2 dbl() const { return Fq2{c0.dbl(), c1.dbl()}; }
  friend Fq2 operator*(const Fq2& a, const Fq2& b) {
    Fq v0 = a.c0 * b.c0, v1 = a.c1 * b.c1;
    Fq m = (a.c0 + a.c1) * (b.c0 + b.c1);
    return Fq2{v0 - v1, m - v0 - v1};
  }
  Fq2 sqr() const {
    Fq m = c0 * c1;
    return Fq2{(c0 + c1) * (c0 - c1), m.dbl()};
  }
  Fq2 inv() const {
    Fq d = (c0.sqr() + c1.sqr()).inv();
    return Fq2{c0 * d, (c1 * d).neg()};
  }
};

}  // namespace nj
