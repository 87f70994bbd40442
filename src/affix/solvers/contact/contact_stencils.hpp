#pragma once
// The active body–body contact stencils at a configuration: every candidate (contact_candidates.hpp)
// is reduced by its closest-feature type (distance/distance_type.hpp) to one smooth sub-distance —
// point–point, point–line, point–plane or edge–edge (Li 2020 §4). The same feature pair reached from
// several candidates (a point beyond an edge shared by two faces, say) is evaluated once but keeps its
// multiplicity, as in IPC: the barrier sum over candidates is then continuous where a candidate's
// closest feature changes (a point crossing from over face A, where it has a point–plane stencil with
// A and a point–edge stencil through B, to beyond the edge, where both reduce to the same point–edge).
// A stencil is active while its distance is below d̂.
#include <array>
#include <vector>

#include "affix/distance/distance_type.hpp"
#include "affix/energy/contact_barrier.hpp"
#include "affix/solvers/contact/contact_candidates.hpp"

namespace affix {

/// The smooth sub-distance a stencil evaluates. edge_edge keeps the closest-feature type of its edge
/// pair (`edge_type`) and is multiplied by the parallel-edge mollifier; an edge pair whose mollifier is
/// inactive (m = 1) and whose closest features include an endpoint becomes point_point or point_line,
/// which is exact there and merges with the same contact found from a face.
enum class StencilForm : unsigned char { point_point, point_line, point_plane, edge_edge };

struct StencilVertex {
  int body = 0;
  int vertex = 0;
  auto operator<=>(const StencilVertex&) const = default;
};

struct ContactStencil {
  StencilForm form = StencilForm::point_point;
  int count = 2;  ///< vertices used: 2, 3 or 4 (point first, then the feature; edge_edge: a₀ a₁ b₀ b₁)
  std::array<StencilVertex, 4> v{};
  double mollifier_threshold = 0.0;  ///< ε_x of the parallel-edge mollifier (edge_edge only)
  EdgeEdgeDistanceType edge_type = EdgeEdgeDistanceType::EA_EB;  ///< edge_edge only
  int multiplicity = 1;  ///< candidates that reduced to this stencil (not part of its identity)
  auto operator<=>(const ContactStencil& o) const {
    return std::tie(form, count, v, edge_type) <=> std::tie(o.form, o.count, o.v, o.edge_type);
  }
  bool operator==(const ContactStencil& o) const {
    return form == o.form && count == o.count && v == o.v && edge_type == o.edge_type;
  }
  /// The (at most two) bodies the stencil couples: v[0]'s body and the other side's.
  int body_a() const { return v[0].body; }
  int body_b() const { return v[count - 1].body; }
};

/// The closest-feature stencil of one candidate at x (multiplicity 1).
ContactStencil reduce_candidate(const std::vector<AffineBody>& bodies,
                                const std::vector<std::vector<std::array<int, 2>>>& edges,
                                const ContactCandidate& c, const WorldVertices& x);

/// Sorts stencils and merges equal ones into one whose multiplicity is their count.
void merge_stencils(std::vector<ContactStencil>& stencils);

/// Stencils of the candidates whose distance at x is below d̂ (sorted, unique, with multiplicity).
std::vector<ContactStencil> active_stencils(const std::vector<AffineBody>& bodies,
                                            const std::vector<std::vector<std::array<int, 2>>>& edges,
                                            const std::vector<ContactCandidate>& candidates,
                                            const WorldVertices& x, double dhat);

/// Stacked positions of the stencil's vertices (unused trailing entries zero).
Vec12 stencil_positions(const ContactStencil& s, const WorldVertices& x);

/// Squared distance of the stencil's sub-distance (value only: for activity tests).
double stencil_squared_distance_value(const ContactStencil& s, const Vec12& positions);

/// Squared distance of the stencil's sub-distance with its gradient and Hessian in the stacked
/// positions (padded to 12).
StencilDerivatives stencil_squared_distance(const ContactStencil& s, const Vec12& positions);

/// multiplicity · κ·b(d) on the stencil (mollified for edge–edge), its value only, from the stencil's
/// squared distance s already known (line searches need no derivatives).
double stencil_barrier_value(const ContactStencil& s, const Vec12& positions, double squared_distance,
                             double dhat, double kappa);

/// multiplicity · κ·b(d) on the stencil (mollified for edge–edge), with gradient and unprojected Hessian.
StencilDerivatives stencil_barrier(const ContactStencil& s, const Vec12& positions, double dhat,
                                   double kappa);

/// Closest points as a weighted sum: Σ w_k x_k = (point side) − (feature side), the contact's
/// separation vector; friction slides along the plane normal to it.
std::array<double, 4> stencil_closest_point_weights(const ContactStencil& s, const Vec12& positions);

}  // namespace affix
