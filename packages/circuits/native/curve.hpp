// Short-Weierstrass (a = 0) points: affine and Jacobian, generic over Fq (G1) and Fq2 (G2).
#pragma once
#include "field.hpp"

namespace nj {

template <typename F>
struct Affine {
  F x, y;
  bool inf;
};

template <typename F>
struct Jac {
  F X, Y, Z;  // Z == 0: infinity

  static Jac infinity() { return Jac{F::one(), F::one(), F::zero()}; }
  static Jac fromAffine(const Affine<F>& a) {
    return a.inf ? infinity() : Jac{a.x, a.y, F::one()};
  }
  bool isInf() const { return Z.isZero(); }

  // dbl-2009-l
  Jac dbl() const {
    if (isInf()) return *this;
    F A = X.sqr(), B = Y.sqr(), C = B.sqr();
    F D = ((X + B).sqr() - A - C).dbl();
    F E = A.dbl() + A;
    F Fv = E.sqr();
    Jac r;
    r.X = Fv - D.dbl();
    F C8 = C.dbl().dbl().dbl();
    r.Y = E * (D - r.X) - C8;
    r.Z = (Y * Z).dbl();
    return r;
  }

  // madd-2007-bl: *this += a (a affine, not infinity checked by caller-friendly path).
  void addAffine(const Affine<F>& a) {
    if (a.inf) return;
    if (isInf()) {
      X = a.x; Y = a.y; Z = F::one();
      return;
    }
    F Z1Z1 = Z.sqr();
    F U2 = a.x * Z1Z1;
    F S2 = a.y * Z * Z1Z1;
    F H = U2 - X;
    F rr = (S2 - Y).dbl();
    if (H.isZero()) {
      if (rr.isZero()) *this = dbl();
      else *this = infinity();
      return;
    }
    F HH = H.sqr();
    F I = HH.dbl().dbl();
    F J = H * I;
    F V = X * I;
    F X3 = rr.sqr() - J - V.dbl();
    F Y3 = rr * (V - X3) - (Y * J).dbl();
    F Z3 = (Z + H).sqr() - Z1Z1 - HH;
    X = X3; Y = Y3; Z = Z3;
  }

  // add-2007-bl
  void add(const Jac& b) {
    if (b.isInf()) return;
    if (isInf()) { *this = b; return; }
    F Z1Z1 = Z.sqr(), Z2Z2 = b.Z.sqr();
    F U1 = X * Z2Z2, U2 = b.X * Z1Z1;
    F S1 = Y * b.Z * Z2Z2, S2 = b.Y * Z * Z1Z1;
    F H = U2 - U1;
    F rr = (S2 - S1).dbl();
    if (H.isZero()) {
      if (rr.isZero()) *this = dbl();
      else *this = infinity();
      return;
    }
    F I = H.dbl().sqr();
    F J = H * I;
    F V = U1 * I;
    F X3 = rr.sqr() - J - V.dbl();
    F Y3 = rr * (V - X3) - (S1 * J).dbl();
    F Z3 = ((Z + b.Z).sqr() - Z1Z1 - Z2Z2) * H;
    X = X3; Y = Y3; Z = Z3;
  }

  Jac neg() const { return Jac{X, Y.neg(), Z}; }

  Affine<F> toAffine() const {
    if (isInf()) return Affine<F>{F::zero(), F::zero(), true};
    F zi = Z.inv();
    F zi2 = zi.sqr();
    return Affine<F>{X * zi2, Y * zi2 * zi, false};
  }

  // Plain double-and-add; only used for the few blinding terms of a proof.
  Jac mul(const u64 e[4]) const {
    Jac r = infinity();
    for (int i = 255; i >= 0; i--) {
      r = r.dbl();
      if ((e[i / 64] >> (i % 64)) & 1) r.add(*this);
    }
    return r;
  }
};

using G1A = Affine<Fq>;
using G2A = Affine<Fq2>;
using G1J = Jac<Fq>;
using G2J = Jac<Fq2>;

}  // namespace nj
