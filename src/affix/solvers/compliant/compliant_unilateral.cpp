// The unilateral rows of the compliant step (mixed_lcp.hpp solves them with the joints): contacts with
// the ground and between bodies with friction, and joint limits.
//
// Contact (FCL's detection, solvers/rigid/collision_detection.hpp, shared with impulse). The contacts
// are found at the poses that free flight with v_free (the step's velocity before any row acts:
// gravity, forces, M̃⁻¹) reaches at t + h, so that a body resting on another, which would sink by
// g h² in that flight, is found touching every step. A contact there has depth δ (> 0 overlapping;
// the ground also reports points up to kGroundMargin above it, δ < 0) at the point x with normal n
// pushing body 1 out of body 2. Over the step the gap changes by h·U(v₊ − v_free) to first order, with
// U = [nᵀ, (r₁ × n)ᵀ | −nᵀ, −(r₂ × n)ᵀ] (r_i = x − c_i): the end gap −δ + h U(v₊ − v_free) ≥ 0 is the row
//   U v₊ ≥ U v_free + δ/h,   λ_n ≥ 0
// (a prescribed side moves as the preview has it, so its share cancels). It is Andrews Eq. 2's −φ/h
// for a row that may only push: an overlap is removed in one step, an approach is stopped at contact.
// Restitution e (issue 15). The step is symplectic Euler, whose flight keeps the shadow energy per unit
// mass along the row, E_n = ½a² + g_n d + ½h g_n a (a the approach speed at the start of the step, d the
// start gap, g_n the free flight's acceleration onto the surface, (U v_now − U v_free)/h; the sphere's
// E + ½hm g·v of CompliantContact.ElasticBounce…). A bounce keeps e² of it: the row asks U v₊ ≥ u with
// ½u² + ½h g_n u = e²E_n − g_n d, the end state (d + hu, u) having shadow energy e²E_n, so a body
// dropped from H rises to e²H (+ at most g h²/8 where the step samples the apex) at any h. The old target
// U v₊ ≥ e·a left a body that met the surface mid-step from the height d it started the step at: 20–40 %
// too high at h = 0.05–0.1 for e = 0.5. For e = 1, u = a, as before. Where e²E_n < g_n d (the body too
// high above the surface to leave it within the step) the row lands it and E_n is kept with the contact
// for the next step's bounce.
// Patch friction (issue 15). The contacts of one pair whose normals agree within 10° are a patch (a box's
// face on the ground: its four corners); the patch has one friction cone, not one per point: two tangent
// rows t₁, t₂ at its centroid on each body (t₁ along the sliding velocity there, so that the pyramid is
// exact for a body that slides) with target 0 and bounds ±μΣλ_n over its points, μ = √(μ₁μ₂) as in every
// solver, and, wider than a point, a torsion row about the normal bounded by ±μρΣλ_n (ρ the points' mean
// distance from the centroid: what the points' own friction resists a turn with under a uniform load).
// Why: the points' normal loads are not unique (four corners on a plane are three independent rows), and
// with a cone per point each corner's friction bound moved with the share the solve gave it; pivoting
// then cycled on a 1000 kg box sliding on a 1 kg box (mixed_lcp_pivoting.cpp) and PGS finished the step
// wrongly (acceleration 0.42 against 1.01 m/s²). Σλ_n is unique, so the patch's bound is. A one-point
// patch (a sphere) has exactly the rows it had. Rows per box face: 4 + 3 instead of 4 × 3.
// Slip and twist (issue 15, hostile pass 4). Bounded separately (a box in wrench space) a patch that slides
// and spins at once met both bounds, |f| = μN and |τ| = μρN together, more than any set of its points'
// Coulomb forces can give: a box spinning at 10 rad/s while sliding at 2 m/s stopped at v₀/μg, 38 % short
// of four corners' Coulomb friction. The patch's limit surface is taken as the ellipsoid
// (|f|/μN)² + (τ/μρN)² ≤ 1 through its exact pure-slide and pure-spin points (Goyal, Ruina & Papadopoulos
// 1991; Howe & Cutkosky 1996), with maximal dissipation: the wrench opposes the twist (v, ω) in the metric
// of the ellipsoid, f = −μN v/s, τ = −μNρ²ω/s, s = √(|v|² + ρ²ω²). In the scaled twist ξ = (v·t₁, v·t₂, ρω)
// the ellipsoid is a ball and dissipation is isotropic, as the Coulomb cone is in v, so the pyramid's trick
// carries over: the three rows are an orthonormal frame of that space, e₁ along ξ at the step's start, each
// bounded by ±μΣλ_n (rows U = e_k·(J_t₁, J_t₂, ρJ_n)). A sliding, spinning patch meets e₁'s bound with the
// ellipsoid's wrench; without spin e₁ = t₁, e₃ the torsion row with bound μρΣλ_n in its own units, which
// were the rows before; holding (ξ = 0) they are the box they were.
//
// Limits (joints/rigid_jacobian.hpp's limit coordinates s, ṡ = J₁u₁ + J₂u₂). A bound becomes the row
// φ = ±(s − bound) ≥ 0, U = ±J, always in the step (speculative: inactive unless the step would pass
// it) and in the projection when within kLimitReach of it: U v₊ ≥ −(φ − ε)/h, λ ≥ 0, held
// ε = kLimitInside inside the bound as the impulse solver holds its limits inside (an inelastic stop). The post-step projection (project_poses) keeps the same rows
// at position level: U Δ ≥ ε − φ.
//
// Overlap. The row above removes a contact's overlap δ₀ at the start of the step within the step, at
// δ₀/h, and that velocity stays when the overlap is gone: a bounce of ½m(δ₀/h)². At h = 0.05 and 0.1 a
// pile whose PGS stops at its cap leaves 5–20 cm overlaps, and their push-out gained 1.2 kJ in a step and
// threw the pile apart (hostile15/box_pile_fps10.json). So the overlap δ₀ = δ + h U v_free (the preview's
// depth less the free flight's approach, first order) is removed at Γ = kOverlapRate per step, the
// free flight's own approach at once:
//   U v₊ ≥ U v_free + δ/h − (1 − Γ) max(δ₀, 0)/h.
// Γ is Andrews' Eq. 15–16 of a contact taken as a compliant row with C b′ = 4h (Γ = h/(h + Cb′) = 0.2),
// the error-reduction parameter 0.2 of ODE and Bullet. A resting contact (δ₀ ≈ 0) is held exactly.
//
// Speculative contacts. FCL's overlap test misses a pair that is apart at the preview but closes in the
// step because a row stops one of the two: a box resting on the ground previews gh² lower than it ends,
// so a box falling onto it from less than gh² (9.8 cm at h = 0.1) met no row and sank into it. Pairs
// nearer than gh² + kGroundMargin at the preview get rows too (CollisionDetection's pair_margin: FCL's
// distance, then the manifold of the pair moved across the gap, each point with δ = −its gap; one point
// per pair let a box land on it and turn).
//
// The contacts in the post-step projection and the rows' re-linearisation at the solved poses are in
// compliant_contact_gaps.cpp.
//
// Lever arms. FCL reports a point midway through the overlap; each body's row is taken at its own surface
// point, x ∓ ½δn (as Bullet takes a contact's point on A and on B): at the preview a resting body has sunk
// gh² into what holds it (9.8 cm at h = 0.1), and from the midpoint a 0.1 m sphere turned about 0.051 m —
// its friction row read the slip at the wrong radius and a sliding ball never began to roll (slip 0.96 m/s
// after 2 s at h = 0.1; hostile pass 2 of issue 15).
//
// Warm start: a contact takes the λ of the last step's contact between the same bodies whose point, in
// body 1's axes, is within kWarmMatch of it, a patch's friction the sum of its points' shares of theirs;
// a limit row its own last λ (kept as forces, λ/h). The point is body 1's own surface point x − ½δn, not
// FCL's midpoint, which moves by half the change of the preview's depth: a sphere landing at h = 0.1 sinks
// 11 cm into the ground at one preview and 21 cm at the next, its midpoint moved 5 cm in its own axes, and
// the restitution energy carried from the landing (above) was lost: the second bounce kept 0.114 of its
// flight's energy instead of e² = 0.25 (hostile pass 4 of issue 15).
//
// Persistence. FCL reports a body–body contact only while the two overlap. A box resting on another
// ends a step touching it, gap 0 to round-off, so every other step FCL saw no contact, the top box fell
// freely by gh² (2.5 cm at h = 0.05), was found overlapping, was pushed out at δ/h and bounced: two
// stacked boxes chattered every two steps (hostile15/stack2.json). So a contact that pushed (λ_n > 0)
// is kept: its row ended the step touching, so its point, as body 1 carried it, is where the surfaces
// met, on both bodies; the two copies ride with their bodies (x₁, x₂), and at the next preview the row
// stands with the gap g = n·(x₁ − x₂) as δ = −g, n in body 2's axes (it lets the gap close and no
// further: a speculative contact, as the ground's kGroundMargin makes them), while g < kPersistGap, the
// copies have not slid apart by kWarmMatch, and FCL reports no contact of the pair there.
#include <algorithm>
#include <cmath>

#include "affix/solvers/compliant/compliant_simulator.hpp"

namespace affix {
namespace {

constexpr double kLimitReach = 0.05;    // m or rad: a bound nearer than this gets its row
constexpr double kLimitInside = 1e-7;   // m or rad: where a limit is held, inside its bound
constexpr double kWarmMatch = 0.01;     // m: a contact point that moved less than this keeps its λ
constexpr double kPersistGap = 0.01;    // m: a kept body–body contact is dropped once its gap is larger
constexpr double kOverlapRate = 0.2;    // Γ of an overlap: the share of it removed per step (header)
constexpr double kPatchCos = 0.985;     // contacts of a pair whose normals are within 10° share a patch
constexpr double kTorsionRadius = 1e-6; // m: a patch narrower than this (one point) has no torsion row

Vec3 perpendicular(const Vec3& n) {
  const Vec3 a = std::abs(n.x()) < 0.6 ? Vec3::UnitX() : Vec3::UnitY();
  return n.cross(a).normalized();
}

}  // namespace

Vec6 CompliantSimulator::body_velocity(int body, const VecX& v) const {
  Vec6 u = Vec6::Zero();
  if (body < 0) return u;
  if (unknown_of_[body] >= 0) return v.segment<6>(6 * unknown_of_[body]);
  u << prescribed_v_[body], prescribed_w_[body];
  return u;
}

void CompliantSimulator::build_unilateral_rows(double h, const VecX& v_free, const std::vector<RigidPose>& preview,
                                               const VecX* linearised) {
  // The velocities the rows are linearised at (their preview's): v_free, or a solved v (re-linearised).
  const VecX& v_lin = linearised ? *linearised : v_free;
  unilateral_.clear();
  origin_.clear();
  // The velocities at the start of the step (restitution, the sliding direction).
  VecX v_now(6 * moving_.size());
  for (std::size_t u = 0; u < moving_.size(); ++u) v_now.segment<6>(6 * u) << bodies_[moving_[u]].v, bodies_[moving_[u]].omega;
  if (may_touch_) {
    // Speculative body–body contacts (header): pairs apart by less than the gh² that a body's preview
    // sinks below where a row may hold it.
    const double pair_margin = model_->settings.gravity.norm() * h * h + kGroundMargin;
    detection_.detect(preview, contacts_, model_->ground ? kGroundMargin : 0.0, pair_margin);
    persist_contacts(preview);
    contact_local_.resize(contacts_.size());
    contact_normal2_.resize(contacts_.size());
    contact_local2_.resize(contacts_.size());
    contact_allowed_.resize(contacts_.size());
    contact_bounce_.resize(contacts_.size());
    group_patches();
    for (std::size_t p = 0; p < patches_.size(); ++p) {
      ContactPatch& patch = patches_[p];
      const RigidContact& first = contacts_[patch_members_[patch.first_member]];
      const int body[2] = {first.body1, first.body2};
      const std::array<int, 2> unknown{unknown_of_[first.body1], first.body2 >= 0 ? unknown_of_[first.body2] : -1};
      patch.first_row = static_cast<int>(unilateral_.size());
      patch.normals = patch.friction_rows = 0;
      if (unknown[0] < 0 && unknown[1] < 0) continue;
      // A row with U = [sign·J_side] on the pair, and its rates: on v_free, on the velocities now (with the
      // prescribed side's share) and the prescribed side's share alone.
      double free_rate = 0.0, lin_rate = 0.0, now_rate = 0.0, prescribed_rate = 0.0;
      const auto row_of = [&](const Vec6& J1, const Vec6& J2) {
        UnilateralRow row;
        row.body = unknown;
        row.J = {J1, J2};
        free_rate = lin_rate = now_rate = prescribed_rate = 0.0;
        for (int side = 0; side < 2; ++side) {
          if (body[side] < 0) continue;
          if (unknown[side] >= 0) {
            free_rate += row.J[side].dot(v_free.segment<6>(6 * unknown[side]));
            lin_rate += row.J[side].dot(v_lin.segment<6>(6 * unknown[side]));
            now_rate += row.J[side].dot(v_now.segment<6>(6 * unknown[side]));
          } else {
            prescribed_rate += row.J[side].dot(body_velocity(body[side], v_now));
          }
        }
        if (body[1] < 0) row.J[1].setZero();
        now_rate += prescribed_rate;
        return row;
      };
      const auto along = [](const Vec3& d, const Vec3& r) {
        Vec6 J;
        J << d, r.cross(d);
        return J;
      };
      // The normal rows, one per point; the patch's centroids on each body and its warm friction.
      Vec3 on[2] = {Vec3::Zero(), Vec3::Zero()}, normal = Vec3::Zero(), warm_friction = Vec3::Zero();
      double warm_torsion = 0.0;
      const int count = patch.last_member - patch.first_member;
      for (int i = patch.first_member; i < patch.last_member; ++i) {
        const int k = patch_members_[i];
        const RigidContact& c = contacts_[k];
        // Each body's lever arm to its own surface point (header, "Lever arms"), not to the overlap's midpoint.
        const Vec3 on1 = c.point - 0.5 * c.depth * c.normal, on2 = c.point + 0.5 * c.depth * c.normal;
        const Vec3 r1 = on1 - preview[c.body1].c, r2 = c.body2 >= 0 ? Vec3(on2 - preview[c.body2].c) : Vec3::Zero();
        on[0] += on1 / count, on[1] += on2 / count, normal += c.normal;
        UnilateralRow row = row_of(along(c.normal, r1), -along(c.normal, r2));
        // The overlap at the start of the step (to first order: the preview's less free flight's approach)
        // is removed at kOverlapRate per step, the free flight's own approach at once (header, "Overlap").
        // Linearised at the preview (v_lin): the end gap −δ + hU(v₊ − v_lin) ≥ −(1 − Γ)·overlap.
        const double overlap = c.depth + h * lin_rate;
        contact_allowed_[k] = overlap > 0.0 ? (1.0 - kOverlapRate) * overlap : 0.0;
        row.c = lin_rate + c.depth / h - contact_allowed_[k] / h;
        // Warm start from the nearest contact of the last step between the same bodies, matched by body 1's
        // own surface point (header, "Warm start"), which does not move with the preview's depth.
        const Vec3 local = preview[c.body1].R.transpose() * (on1 - preview[c.body1].c);
        contact_local_[k] = local;
        if (c.body2 >= 0) contact_normal2_[k] = preview[c.body2].R.transpose() * c.normal;
        contact_local2_[k] = c.body2 >= 0 ? Vec3(preview[c.body2].R.transpose() * (on2 - preview[c.body2].c)) : on2;
        const WarmContact* warm = nullptr;
        double nearest = kWarmMatch;
        for (const WarmContact& w : warm_contacts_)
          if (w.body1 == c.body1 && w.body2 == c.body2 && (w.local - local).norm() < nearest)
            nearest = (w.local - local).norm(), warm = &w;
        row.lambda = warm ? h * warm->normal : 0.0;
        contact_bounce_[k] = 0.0;
        if (settings_.restitution > 0.0) {
          // Restitution (header): the row's shadow energy E_n, the impact's (or one carried from a landing).
          const double approach = -now_rate, gap = std::max(-overlap, 0.0);
          const double g_n = (now_rate - prescribed_rate - free_rate) / h;  // free flight's pull onto the surface
          // Whatever the sign of the approach: a body still rising at the step's start whose flight comes down
          // onto the surface within the step has its flight's energy too (it was landed dead before, the
          // bounce after a short hop at h = 0.1 keeping 0.37 of its energy at e = 0.8).
          double energy = std::max(0.5 * approach * approach + g_n * gap + 0.5 * h * g_n * approach, 0.0);
          if (warm) energy = std::max(energy, warm->bounce);
          const double e = settings_.restitution, available = e * e * energy - g_n * gap;
          if (available > 0.0) {
            const double leave = -0.5 * h * g_n + std::sqrt(0.25 * h * h * g_n * g_n + 2.0 * available);
            row.c = std::max(row.c, leave - prescribed_rate);
          } else if (energy > 0.0) {
            contact_bounce_[k] = energy;  // too high above the surface to leave it in this step: land first
          }
        }
        if (warm) warm_friction += warm->friction, warm_torsion += warm->torsion;
        unilateral_.push_back(row);
        origin_.push_back({RowKind::contact_normal, k});
        ++patch.normals;
      }
      const double mu1 = model_->bodies[first.body1].friction;
      const double mu2 = first.body2 >= 0 ? model_->bodies[first.body2].friction : model_->ground->friction;
      const double mu = std::sqrt(mu1 * mu2);
      if (!(mu > 0.0)) continue;
      // Patch friction (header): at the patch's centroid on each body, bounded by μ times its points' Σλ_n.
      normal.normalize();
      const Vec3 r[2] = {on[0] - preview[first.body1].c, first.body2 >= 0 ? Vec3(on[1] - preview[first.body2].c) : Vec3::Zero()};
      const Vec3 sliding = [&] {
        Vec3 rel = Vec3::Zero();
        for (int side = 0; side < 2; ++side) {
          if (body[side] < 0) continue;
          const Vec6 u = body_velocity(body[side], v_now);
          rel += (side == 0 ? 1.0 : -1.0) * (u.head<3>() + u.tail<3>().cross(r[side]));
        }
        return Vec3(rel - rel.dot(normal) * normal);
      }();
      const Vec3 t1 = sliding.norm() > 1e-9 ? Vec3(sliding.normalized()) : perpendicular(normal);
      const Vec3 t2 = normal.cross(t1);
      // ρ: the points' mean distance from the centroid in the contact plane, so that a uniformly loaded patch
      // resists a turn as its points' friction would (μρΣλ_n); one point has no torsion row.
      double rho = 0.0;
      for (int i = patch.first_member; i < patch.last_member; ++i) {
        const RigidContact& c = contacts_[patch_members_[i]];
        const Vec3 d = c.point - 0.5 * c.depth * c.normal - on[0];
        rho += (d - d.dot(normal) * normal).norm() / count;
      }
      const bool twists = rho > kTorsionRadius;
      // The limit surface (header, "Slip and twist"): in the scaled twist (slip along t₁, slip along t₂, ρ·spin)
      // the ellipsoid is a ball of radius μΣλ_n, and the rows are an orthonormal frame e₁ e₂ e₃ of that space
      // with e₁ along the patch's scaled twist at the step's start, each bounded by ±μΣλ_n.
      double spin = 0.0;
      for (int side = 0; side < 2; ++side)
        if (body[side] >= 0) spin += (side == 0 ? 1.0 : -1.0) * body_velocity(body[side], v_now).tail<3>().dot(normal);
      const double slip = sliding.norm(), twist = twists ? rho * spin : 0.0, scaled = std::hypot(slip, twist);
      const double cos_psi = scaled > 1e-9 ? slip / scaled : 1.0, sin_psi = scaled > 1e-9 ? twist / scaled : 0.0;
      Vec6 turn = Vec6::Zero();
      turn.tail<3>() = normal;
      const bool sliding_patch = scaled > 1e-9;
      const auto add_friction = [&](const Vec3& t, double along_t, double along_turn, bool yields) {
        // The row's force direction along_t·t and torque about the normal along_turn·ρ per unit impulse.
        const Vec6 J1 = along_t * along(t, r[0]) + along_turn * rho * turn;
        const Vec6 J2 = -along_t * along(t, r[1]) - along_turn * rho * turn;
        UnilateralRow row = row_of(J1, J2);
        row.c = -prescribed_rate;  // no sliding: U v₊ + (the prescribed side's share) = 0
        row.normal = patch.first_row;
        row.normals = patch.normals;
        row.friction = mu;
        row.lo = -std::numeric_limits<double>::infinity();
        if (yields && sliding_patch) row.lead = patch.first_row + patch.normals;  // e₁ (mixed_lcp.hpp, "Leads")
        // Warm: the last step's patch force and torque (λ/h) taken along this row's wrench direction (the frame
        // is orthonormal in the scaled space, the torque scaled by 1/ρ).
        row.lambda = h * (along_t * warm_friction.dot(t) + (twists ? along_turn * warm_torsion / rho : 0.0));
        patch.twist[patch.friction_rows] = along_turn * rho;
        unilateral_.push_back(row);
        origin_.push_back({RowKind::contact_tangent, static_cast<int>(p)});
        ++patch.friction_rows;
      };
      add_friction(t1, cos_psi, sin_psi, false);               // e₁: the patch's slip and spin together (holding: t₁)
      add_friction(t2, 1.0, 0.0, false);                        // e₂
      if (twists) add_friction(t1, -sin_psi, cos_psi, true);  // e₃: ⟂ e₁ in the slip–spin plane (holding: the turn)
    }
  }
  append_limit_rows(h, false, unilateral_, &origin_);
  append_slack_rows(h, false, unilateral_, &origin_);
}

void CompliantSimulator::group_patches() {
  // Greedy, in the contacts' order: a patch is a contact and every later one of the same pair whose
  // normal is within kPatchCos of it. O(contacts²) comparisons, no allocation once the vectors have grown.
  const int count = static_cast<int>(contacts_.size());
  patch_of_.assign(count, -1);
  patch_members_.clear();
  patches_.clear();
  for (int k = 0; k < count; ++k) {
    if (patch_of_[k] >= 0) continue;
    const RigidContact& c = contacts_[k];
    ContactPatch patch;
    patch.first_member = static_cast<int>(patch_members_.size());
    for (int l = k; l < count; ++l) {
      const RigidContact& d = contacts_[l];
      if (patch_of_[l] >= 0 || d.body1 != c.body1 || d.body2 != c.body2 || d.normal.dot(c.normal) < kPatchCos) continue;
      patch_of_[l] = static_cast<int>(patches_.size());
      patch_members_.push_back(l);
    }
    patch.last_member = static_cast<int>(patch_members_.size());
    patches_.push_back(patch);
  }
}

void CompliantSimulator::persist_contacts(const std::vector<RigidPose>& preview) {
  const std::size_t detected = contacts_.size();
  for (const WarmContact& w : warm_contacts_) {
    if (w.body2 < 0 || !(w.normal > 0.0)) continue;
    // The contact pushed, so its row ended the last step touching (w = 0): its point as body 1 carried it
    // there is where the two surfaces met, a point of body 2 as well. Both ride with their bodies.
    const RigidBody &b1 = bodies_[w.body1], &b2 = bodies_[w.body2];
    const Vec3 met = b1.rotation() * w.local + b1.c;
    const Vec3 on2 = b2.rotation().transpose() * (met - b2.c);
    const RigidPose &p1 = preview[w.body1], &p2 = preview[w.body2];
    const Vec3 x1 = p1.R * w.local + p1.c, x2 = p2.R * on2 + p2.c;
    const Vec3 n = p2.R * w.normal2;
    const double gap = n.dot(x1 - x2);
    if (gap > kPersistGap || (x1 - x2 - gap * n).norm() > kWarmMatch) continue;
    const bool reported = std::any_of(contacts_.begin(), contacts_.begin() + detected, [&](const RigidContact& c) {
      return c.body1 == w.body1 && c.body2 == w.body2 &&
             (p1.R.transpose() * (c.point - 0.5 * c.depth * c.normal - p1.c) - w.local).norm() < kWarmMatch;
    });
    if (!reported) contacts_.push_back({w.body1, w.body2, 0.5 * (x1 + x2), n, -gap});
  }
}

void CompliantSimulator::append_slack_rows(double h, bool position, std::vector<UnilateralRow>& rows,
                                           std::vector<RowOrigin>* origin) {
  // A slack cable joint's axial row φ = d·x₂ with stretch σφ, flipped to U = −σJ so that its impulse
  // μ′ = hT ≥ 0 is the tension. The bilateral compliant row J v + S μ = −Γφ/h (Eq. 14–17) times −σ:
  //   U v₊ + S μ′ ≥ Γσφ/h,   μ′ ≥ 0,   complementary:
  // taut, it is the joint's own compliant row; slack (μ′ = 0), the stretch at the end of the step,
  // σφ + h σJv₊, stays ≤ (1 − Γ)σφ ≈ 0. In the projection (Δ the pose change, ν′ ≥ 0):
  //   U Δ + C ν′ ≥ σφ − C T,   the compliant target φ = −Cλ of a taut row (λ = −σT).
  // The stop in compression (model/slack_cable.hpp) is a limit on the stretch, held as the joint limits
  // are (append_limit_rows): φ_s = σφ + r ≥ 0, U = σJ, in the step U v₊ ≥ −(φ_s − ε)/h (speculative,
  // inelastic), in the projection U Δ ≥ ε − φ_s within kLimitReach of the stop.
  for (std::size_t j = 0; j < slack_.size(); ++j) {
    const SlackRow& sr = slack_[j];
    if (!sr.slack) continue;
    const double room = sr.sign * sr.phi + sr.reach;  // φ_s
    if (!position || room <= kLimitReach) {
      UnilateralRow stop;
      stop.body = J_.slots[j].body;
      stop.J[0] = sr.sign * sr.J[0];
      stop.J[1] = sr.sign * sr.J[1];
      if (position) {
        stop.c = kLimitInside - room;
      } else {
        double prescribed_rate = 0.0;
        const int body[2] = {joints_[j].body1, joints_[j].body2};
        for (int side = 0; side < 2; ++side)
          if (body[side] >= 0 && unknown_of_[body[side]] < 0) prescribed_rate += stop.J[side].dot(body_velocity(body[side], VecX()));
        stop.c = -(room - kLimitInside) / h - prescribed_rate;
        stop.lambda = h * sr.stop_force;
      }
      rows.push_back(stop);
      if (origin) origin->push_back({RowKind::slack_stop, static_cast<int>(j)});
    }
    UnilateralRow row;
    row.body = J_.slots[j].body;
    row.J[0] = -sr.sign * sr.J[0];
    row.J[1] = -sr.sign * sr.J[1];
    const double stretch = sr.sign * sr.phi;
    if (position) {
      if (sr.compliance > 1e-4) continue;  // a soft axis is a spring, left out as project_poses does
      row.s = sr.compliance;
      row.c = stretch - sr.compliance * sr.tension;
    } else {
      const double C = sr.compliance, b = sr.damping;
      row.s = C / (h * (h + C * b));
      double prescribed_rate = 0.0;
      const int body[2] = {joints_[j].body1, joints_[j].body2};
      for (int side = 0; side < 2; ++side)
        if (body[side] >= 0 && unknown_of_[body[side]] < 0) {
          Vec6 u;
          u << prescribed_v_[body[side]], prescribed_w_[body[side]];
          prescribed_rate += row.J[side].dot(u);
        }
      row.c = h / (h + C * b) * stretch / h - prescribed_rate;
      row.lambda = h * sr.tension;
    }
    rows.push_back(row);
    if (origin) origin->push_back({RowKind::slack, static_cast<int>(j)});
  }
}

void CompliantSimulator::append_drive_rows(double h) {
  // A drive with max_force F (drive_rows.hpp): its bilateral row J_s v₊ + S μ = ṡ* − Γφ/h − J_d v_d
  // (S, Γ from its C and d, Eq. 14–17) with the box |μ| ≤ hF: the mixed LCP's row w = U v + s μ − c with
  // U = J_s, s = S, c the right-hand side, lo = −hF, hi = hF. Inside the box w = 0 (the drive's own
  // equation); at a bound the drive pushes with all it has (w of the sign that asks for more).
  for (std::size_t d = 0; d < bounded_.size(); ++d) {
    const BoundedDrive& bd = bounded_[d];
    const double C = bd.drive.compliance(settings_.compliance), b = bd.drive.own_damping();
    UnilateralRow row;
    row.body = bd.body;
    row.J = bd.J;
    row.s = C / (h * (h + C * b));
    double prescribed_rate = 0.0;
    const int body[2] = {joints_[bd.joint].body1, joints_[bd.joint].body2};
    for (int side = 0; side < 2; ++side)
      if (body[side] >= 0 && unknown_of_[body[side]] < 0) {
        Vec6 u;
        u << prescribed_v_[body[side]], prescribed_w_[body[side]];
        prescribed_rate += row.J[side].dot(u);
      }
    row.c = bd.drive.target_rate() - h / (h + C * b) * bd.phi / h - prescribed_rate;
    row.lo = -h * bd.drive.max_force;
    row.hi = h * bd.drive.max_force;
    row.lambda = std::clamp(h * bd.force, row.lo, row.hi);
    unilateral_.push_back(row);
    origin_.push_back({RowKind::drive, static_cast<int>(d)});
  }
}

void CompliantSimulator::append_limit_rows(double h, bool position, std::vector<UnilateralRow>& rows,
                                           std::vector<RowOrigin>* origin) {
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const RigidJoint& rj = joints_[j];
    if (rj.limit_count == 0) continue;
    const RigidRows L = limit_coordinates(j);
    const JointSlot& slot = J_.slots[j];
    const int body[2] = {rj.body1, rj.body2};
    for (int k = 0; k < rj.limit_count; ++k)
      for (int side = 0; side < 2; ++side) {
        const double bound = side == 0 ? rj.limits[k].min : rj.limits[k].max;
        if (!std::isfinite(bound)) continue;
        const double sign = side == 0 ? 1.0 : -1.0;
        const double phi = sign * (L.value[k] - bound);
        UnilateralRow row;
        row.body = slot.body;
        row.J[0] = sign * L.J1.row(k).transpose();
        if (L.J2.rows() > 0) row.J[1] = sign * L.J2.row(k).transpose();
        double prescribed_rate = 0.0;
        for (int s = 0; s < 2; ++s) {
          if (body[s] < 0 || unknown_of_[body[s]] >= 0) continue;
          Vec6 u;
          u << prescribed_v_[body[s]], prescribed_w_[body[s]];
          prescribed_rate += row.J[s].dot(u);
        }
        const int key = 6 * static_cast<int>(j) + 2 * k + side;
        if (position) {
          if (phi > kLimitReach) continue;
          row.c = kLimitInside - phi;
        } else {
          // Every bound gets its row, however far (a speculative stop: λ stays 0 unless the step's motion
          // would pass it). Chosen by the start rate alone, a bound far away was missed when the step's
          // torque or motor turned the joint past it — at h = 0.1 past 180°, where atan2 then read the
          // angle beyond the opposite stop and pinned it there (hostile16 #3).
          row.c = -(phi - kLimitInside) / h - prescribed_rate;
          row.lambda = h * limit_lambda_[key];
        }
        rows.push_back(row);
        if (origin) origin->push_back({RowKind::limit, key});
      }
  }
}

double CompliantSimulator::limit_violation() const {
  double worst = 0.0;
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const RigidJoint& rj = joints_[j];
    if (rj.limit_count == 0) continue;
    const RigidRows L = limit_coordinates(j);
    for (int k = 0; k < rj.limit_count; ++k)
      worst = std::max({worst, rj.limits[k].min - L.value[k], L.value[k] - rj.limits[k].max});
  }
  return worst;
}

void CompliantSimulator::keep_unilateral_solution(double h) {
  next_warm_.clear();
  records_.clear();
  active_contacts_ = 0;
  std::fill(limit_lambda_.begin(), limit_lambda_.end(), 0.0);
  for (std::size_t r = 0; r < unilateral_.size(); ++r) {
    const UnilateralRow& row = unilateral_[r];
    const RowOrigin& o = origin_[r];
    if (o.kind == RowKind::limit) {
      limit_lambda_[o.index] = row.lambda / h;
      continue;
    }
    if (o.kind == RowKind::slack) {
      slack_[o.index].tension = row.lambda / h;
      continue;
    }
    if (o.kind == RowKind::slack_stop) {
      slack_[o.index].stop_force = row.lambda / h;
      continue;
    }
    if (o.kind == RowKind::drive) {
      bounded_[o.index].force = row.lambda / h;
      continue;
    }
  }
  for (const ContactPatch& patch : patches_) {
    // The patch's friction (force, world, on body 1) and torsion (N·m), shared by its points as the next
    // step's warm start sums them back (build_unilateral_rows).
    Vec3 friction = Vec3::Zero();
    double torsion = 0.0;
    const int tangents = patch.first_row + patch.normals;
    for (int t = 0; t < patch.friction_rows; ++t) {
      const UnilateralRow& row = unilateral_[tangents + t];
      friction += row.lambda / h * row.J[0].head<3>();
      torsion += row.lambda / h * patch.twist[t];
    }
    for (int r = patch.first_row; r < patch.first_row + patch.normals; ++r) {
      const UnilateralRow& row = unilateral_[r];
      const RigidContact& c = contacts_[origin_[r].index];
      // The point in body 1's axes at the preview it was found at, as the next step's rows compute it: a
      // resting body's preview sinks by gh² below where it ends the step (2.5 cm at h = 0.05), and read at
      // the end of the step the point had moved by half that, beyond kWarmMatch, and lost its warm start.
      next_warm_.push_back({c.body1, c.body2, contact_local_[origin_[r].index], row.lambda / h, friction / patch.normals,
                            torsion / patch.normals, contact_bounce_[origin_[r].index],
                            c.body2 >= 0 ? contact_normal2_[origin_[r].index] : Vec3(Vec3::UnitZ())});
      if (row.lambda > 0.0) {
        ++active_contacts_;
        records_.push_back({c.body1, c.body2, c.point, c.normal, -c.depth, row.lambda / h});
      }
    }
  }
  std::swap(warm_contacts_, next_warm_);
}

}  // namespace affix
