// Groth16 proving key (parsed once from a snarkjs .zkey) and the prover.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "curve.hpp"

namespace nj {

// An error with a stable code that the binding hands to JS (err.code).
struct ProverFailure : std::runtime_error {
  std::string code;
  ProverFailure(std::string c, const std::string& msg) : std::runtime_error(msg), code(std::move(c)) {}
};

struct Coef {
  uint32_t row;  // constraint (domain index)
  uint32_t var;  // witness index
  Fr value;      // Montgomery form, as stored in the zkey
};

struct ProvingKey {
  uint32_t nVars = 0, nPublic = 0, domainSize = 0, power = 0;
  G1A alpha1, beta1, delta1;
  G2A beta2, delta2;
  std::vector<Coef> coefA, coefB;
  std::vector<G1A> A, B1, C, H;
  std::vector<G2A> B2;
  // Powers of the domain generator w (n/2 of them) and of w^-1, and of the coset shift.
  std::vector<Fr> roots, invRoots, shift;
  Fr nInv;
};

void initCurves();

// Throws ProverFailure (ZKEY_*) on any malformed, truncated or non-groth16/non-BN254 key.
ProvingKey* loadKey(const uint8_t* data, size_t len);

struct ProofOut {
  uint8_t proof[256];  // A.x A.y B.x.c1 B.x.c0 B.y.c1 B.y.c0 C.x C.y, 32-byte big-endian each
};

struct PhaseTimes {
  double build = 0, ntt = 0, msm = 0, total = 0;
};

// witness: nVars 32-byte little-endian elements (each below r). rand: 128 random bytes for r and s.
// Throws ProverFailure (WITNESS_*) on a malformed witness.
void prove(const ProvingKey& key, const uint8_t* witness, size_t witnessLen, const uint8_t rand[128],
           unsigned threads, ProofOut& out, PhaseTimes* times);

}  // namespace nj
