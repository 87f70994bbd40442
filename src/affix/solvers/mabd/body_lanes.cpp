#include "affix/solvers/mabd/body_lanes.hpp"

#include "affix/math/rotation.hpp"
#include "affix/solvers/mabd/psd_clamp.hpp"

// The vectors below never cross a call between objects built with different flags (the helpers are
// this file's own), so GCC's note that a 32-byte vector is returned differently with AVX is moot.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace affix {
namespace {

// GCC's vector extension: four doubles, each operator lane by lane (two SSE2 instructions, or one AVX).
// Only arithmetic and bitwise operators on them: a comparison or a `?:` of such vectors is split into
// scalars where the target has no 256-bit vectors (measured: it made the polar factor twice as slow).
using Lane = double __attribute__((vector_size(4 * sizeof(double))));
using Bits = long __attribute__((vector_size(4 * sizeof(long))));

Lane splat(double x) { return Lane{x, x, x, x}; }
/// Lane k of `yes` where take[k], else of `no`.
Lane select(const Bits& take, const Lane& yes, const Lane& no) {
  return reinterpret_cast<Lane>((reinterpret_cast<Bits>(yes) & take) | (reinterpret_cast<Bits>(no) & ~take));
}
Lane abs(const Lane& x) {
  constexpr long kMagnitude = 0x7fffffffffffffffL;
  return reinterpret_cast<Lane>(reinterpret_cast<Bits>(x) & Bits{kMagnitude, kMagnitude, kMagnitude, kMagnitude});
}

/// A 3×3 matrix per lane: m[r][c] holds entry (r, c) of the four lanes' matrices.
struct M3 {
  Lane m[3][3];
};

M3 load(const Mat3 (&A)[kBodyLanes]) {
  M3 out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.m[r][c] = Lane{A[0](r, c), A[1](r, c), A[2](r, c), A[3](r, c)};
  return out;
}
M3 load(const Mat3* const (&A)[kBodyLanes]) {
  M3 out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.m[r][c] = Lane{(*A[0])(r, c), (*A[1])(r, c), (*A[2])(r, c), (*A[3])(r, c)};
  return out;
}
void store(const M3& M, Mat3 (&A)[kBodyLanes]) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < kBodyLanes; ++k) A[k](r, c) = M.m[r][c][k];
}

/// X Y, and Xᵀ Y.
M3 product(const M3& X, const M3& Y) {
  M3 out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.m[r][c] = X.m[r][0] * Y.m[0][c] + X.m[r][1] * Y.m[1][c] + X.m[r][2] * Y.m[2][c];
  return out;
}
M3 transpose_product(const M3& X, const M3& Y) {
  M3 out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.m[r][c] = X.m[0][r] * Y.m[0][c] + X.m[1][r] * Y.m[1][c] + X.m[2][r] * Y.m[2][c];
  return out;
}

/// X Yᵀ.
M3 product_transpose(const M3& X, const M3& Y) {
  M3 out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.m[r][c] = X.m[r][0] * Y.m[c][0] + X.m[r][1] * Y.m[c][1] + X.m[r][2] * Y.m[c][2];
  return out;
}

/// X's cofactors C (X⁻¹ = Cᵀ/det) and its determinant, expanded along the first row.
M3 cofactors(const M3& X, Lane& det) {
  const auto& m = X.m;
  M3 C;
  for (int r = 0; r < 3; ++r) {
    const int r1 = (r + 1) % 3, r2 = (r + 2) % 3;
    for (int c = 0; c < 3; ++c) {
      const int c1 = (c + 1) % 3, c2 = (c + 2) % 3;
      C.m[r][c] = m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1];
    }
  }
  det = m[0][0] * C.m[0][0] + m[0][1] * C.m[0][1] + m[0][2] * C.m[0][2];
  return C;
}
M3 inverse(const M3& X) {
  Lane det;
  const M3 C = cofactors(X, det);
  const Lane scale = 1.0 / det;
  M3 out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out.m[r][c] = C.m[c][r] * scale;
  return out;
}

/// S = sym(RᵀA) and the strain ε = S − I of the polar R (corotated_body.cpp's `strain`), and tr ε.
M3 strain(const M3& A, const M3& R, Lane& trace, M3* symmetric = nullptr) {
  const M3 RtA = transpose_product(R, A);
  M3 S, eps;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      S.m[r][c] = 0.5 * (RtA.m[r][c] + RtA.m[c][r]);
      eps.m[r][c] = S.m[r][c] - (r == c ? 1.0 : 0.0);
    }
  trace = eps.m[0][0] + eps.m[1][1] + eps.m[2][2];
  if (symmetric) *symmetric = S;
  return eps;
}

/// 2μ ε + λ tr(ε) I.
M3 stress(const M3& eps, const Lane& trace, const Lane& mu, const Lane& lambda) {
  M3 P;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) P.m[r][c] = 2.0 * mu * eps.m[r][c] + (r == c ? lambda * trace : splat(0.0));
  return P;
}

void materials(const LaneMaterial (&material)[kBodyLanes], Lane& volume, Lane& mu, Lane& lambda) {
  for (int k = 0; k < kBodyLanes; ++k)
    volume[k] = material[k].volume, mu[k] = material[k].lame.mu, lambda[k] = material[k].lame.lambda;
}

}  // namespace

void polar_factors4(const Mat3 (&A)[kBodyLanes], Mat3 (&R)[kBodyLanes]) {
  // corotated_body.cpp's polar_factor: R ← ½(R + R⁻ᵀ) from R = A, R⁻ᵀ = [r₁×r₂, r₂×r₀, r₀×r₁]/det, at most
  // kPolarIterations steps, converged when a step changed no entry by 10⁻⁸ or more; a lane whose det is
  // not positive, or that has not converged, takes the SVD. The lanes' tests are read as scalars, once
  // per step; a lane that has stopped keeps its R (selected bitwise, so bit for bit).
  constexpr int kPolarIterations = 6;
  constexpr double kConverged = 1e-8;
  M3 X = load(A);
  bool going[kBodyLanes] = {true, true, true, true}, converged[kBodyLanes] = {};
  for (int k = 0; k < kPolarIterations && (going[0] || going[1] || going[2] || going[3]); ++k) {
    const auto& m = X.m;
    M3 cof;  // column c of the cofactor matrix: the cross product of X's other two columns
    for (int c = 0; c < 3; ++c) {
      const int a = (c + 1) % 3, b = (c + 2) % 3;
      cof.m[0][c] = m[1][a] * m[2][b] - m[2][a] * m[1][b];
      cof.m[1][c] = m[2][a] * m[0][b] - m[0][a] * m[2][b];
      cof.m[2][c] = m[0][a] * m[1][b] - m[1][a] * m[0][b];
    }
    const Lane det = m[0][0] * cof.m[0][0] + m[1][0] * cof.m[1][0] + m[2][0] * cof.m[2][0];
    const Lane half_inverse = 0.5 / det;
    Lane change = splat(0.0);
    M3 next;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        next.m[r][c] = 0.5 * m[r][c] + half_inverse * cof.m[r][c];
        const Lane d = abs(next.m[r][c] - m[r][c]);
        for (int l = 0; l < kBodyLanes; ++l) change[l] = d[l] > change[l] ? d[l] : change[l];
      }
    Bits step{};
    for (int l = 0; l < kBodyLanes; ++l) {
      if (!going[l]) continue;
      if (!(det[l] > 0.0)) {
        going[l] = false;  // failed: the SVD
        continue;
      }
      step[l] = -1;
      if (change[l] < kConverged) converged[l] = true, going[l] = false;
    }
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) X.m[r][c] = select(step, next.m[r][c], m[r][c]);
  }
  store(X, R);
  for (int k = 0; k < kBodyLanes; ++k)
    if (!converged[k]) R[k] = polar_rotation(A[k]);
}

void elastic_gradients4(const Mat3 (&A)[kBodyLanes], const Mat3 (&R)[kBodyLanes],
                        const LaneMaterial (&material)[kBodyLanes], Vec12 (&gradient)[kBodyLanes]) {
  Lane volume, mu, lambda;
  materials(material, volume, mu, lambda);
  const M3 Rl = load(R);
  Lane trace;
  const M3 P = stress(strain(load(A), Rl, trace), trace, mu, lambda);
  M3 G = product(Rl, P);  // ∂Ψ/∂A = V R (2μ ε + λ tr(ε) I)  (He 2026 Eq. 14)
  // Stored as g's entries 3…11 (row r of ∂Ψ/∂A at 3 + 3r): the step's gradient takes the vector as it
  // is, where a Mat3 had to be copied into it entry by entry (a stall on every body of build_system).
  for (int k = 0; k < kBodyLanes; ++k) gradient[k].head<3>().setZero();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      const Lane x = volume * G.m[r][c];
      for (int k = 0; k < kBodyLanes; ++k) gradient[k][3 + 3 * r + c] = x[k];
    }
}

void elastic_states4(const Mat3 (&A)[kBodyLanes], const Mat3 (&R)[kBodyLanes],
                     const LaneMaterial (&material)[kBodyLanes], ElasticState (&state)[kBodyLanes]) {
  Lane volume, mu, lambda;
  materials(material, volume, mu, lambda);
  Lane tr;
  M3 S;
  const M3 eps = strain(load(A), load(R), tr, &S);
  const M3 P = stress(eps, tr, mu, lambda);
  Lane squared = splat(0.0);
  for (const auto& row : eps.m)
    for (const Lane& x : row) squared += x * x;
  const Lane energy = volume * (mu * squared + 0.5 * lambda * tr * tr);
  // Γ/V = (tr(P) I − P)(tr(S) I − S)⁻¹ with S = I + ε (corotated_body.cpp's elastic_state says why).
  const Lane trace_P = P.m[0][0] + P.m[1][1] + P.m[2][2];
  const Lane trace_S = S.m[0][0] + S.m[1][1] + S.m[2][2];
  M3 N, D;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      const bool diagonal = r == c;
      N.m[r][c] = (diagonal ? trace_P : splat(0.0)) - P.m[r][c];
      D.m[r][c] = (diagonal ? trace_S : splat(0.0)) - S.m[r][c];
    }
  const M3 product_ND = product(N, inverse(D));
  M3 gamma;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) gamma.m[r][c] = 0.5 * volume * (product_ND.m[r][c] + product_ND.m[c][r]);
  // Positive semi-definite up to ε = 10⁻¹² tr|Γ| when every principal minor of Γ + εI is ≥ 0 (as there).
  const Lane shift = 1e-12 * (abs(gamma.m[0][0]) + abs(gamma.m[1][1]) + abs(gamma.m[2][2]));
  M3 shifted = gamma;
  for (int d = 0; d < 3; ++d) shifted.m[d][d] += shift;
  const auto& s = shifted.m;
  const auto minor = [&](int i, int j) { return s[i][i] * s[j][j] - s[i][j] * s[i][j]; };
  Lane det;
  cofactors(shifted, det);
  const Lane minor01 = minor(0, 1), minor02 = minor(0, 2), minor12 = minor(1, 2);
  Mat3 twist[kBodyLanes];
  store(gamma, twist);
  for (int k = 0; k < kBodyLanes; ++k) {
    const bool semi_definite = s[0][0][k] >= 0.0 && s[1][1][k] >= 0.0 && s[2][2][k] >= 0.0 && minor01[k] >= 0.0 &&
                               minor02[k] >= 0.0 && minor12[k] >= 0.0 && det[k] >= 0.0;
    state[k].energy = energy[k];
    state[k].twist = semi_definite ? twist[k] : clamp_negative_eigenvalues(twist[k]);  // psd_clamp.hpp
  }
}

void twist_gains4(const Mat3* const (&h2_gamma)[kBodyLanes], const Mat3* const (&W)[kBodyLanes],
                  Mat3 (&gain)[kBodyLanes]) {
  const M3 G = load(h2_gamma);
  M3 N = product(G, load(W));  // I + h²Γ W
  for (int d = 0; d < 3; ++d) N.m[d][d] += 1.0;
  store(product(inverse(N), G), gain);
}

void ball_blocks4(const BallBlockLane (&lane)[kBodyLanes], Mat3* const (&block)[kBodyLanes]) {
  const auto gather = [&](const Mat3* BallBlockLane::*which) {
    const Mat3* const M[kBodyLanes] = {lane[0].*which, lane[1].*which, lane[2].*which, lane[3].*which};
    return load(M);
  };
  const M3 R = gather(&BallBlockLane::R);
  const M3 Ya = gather(&BallBlockLane::Ya);
  M3 inner = gather(&BallBlockLane::middle);
  const M3 KYct = product_transpose(gather(&BallBlockLane::K), gather(&BallBlockLane::Yc));  // K Y_cᵀ
  const M3 YKY = product(Ya, KYct);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) inner.m[r][c] -= YKY.m[r][c];  // M − Y_a K Y_cᵀ
  const M3 out = product_transpose(product(R, inner), R);       // R (…) Rᵀ
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < kBodyLanes; ++k) (*block[k])(r, c) = out.m[r][c][k];
}

}  // namespace affix
