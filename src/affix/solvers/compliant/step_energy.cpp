#include "affix/solvers/compliant/step_energy.hpp"

#include "affix/solvers/compliant/stability_damping.hpp"

namespace affix {
namespace {

double spring_energy(const VecX& phi, const std::vector<double>& compliance, int rows) {
  double e = 0.0;
  for (int r = 0; r < rows; ++r)
    if (compliance[r] > kSoftCompliance) e += 0.5 * phi[r] * phi[r] / compliance[r];
  return e;
}

}  // namespace

double mechanical_energy(const std::vector<RigidBody>& bodies, const std::vector<int>& moving, const Vec3& gravity,
                         const VecX& phi, const std::vector<double>& compliance, int rows) {
  double e = spring_energy(phi, compliance, rows);
  for (int i : moving) e += bodies[i].kinetic_energy() - bodies[i].mass * gravity.dot(bodies[i].c);
  return e;
}

double mechanical_energy_after(const std::vector<RigidBody>& bodies, const std::vector<int>& moving, const VecX& v,
                               double h, const Vec3& gravity, const VecX& phi_next,
                               const std::vector<double>& compliance, int rows) {
  double e = spring_energy(phi_next, compliance, rows);
  for (std::size_t u = 0; u < moving.size(); ++u) {
    RigidBody b = bodies[moving[u]];
    b.v = v.segment<3>(6 * u);
    b.omega = v.segment<3>(6 * u + 3);
    const Vec3 L = b.angular_momentum();  // I ω₊ at the start rotation, held by the drift (compliant_simulator.cpp)
    const RigidDrift d = drift(b.c, b.q, b.v, b.omega, h);
    b.c = d.c;
    b.q = d.q;
    b.set_angular_momentum(L);
    e += b.kinetic_energy() - b.mass * gravity.dot(b.c);
  }
  return e;
}

double gravity_shadow(const std::vector<RigidBody>& bodies, const std::vector<int>& moving, const VecX* v,
                      const Vec3& gravity, double h) {
  double s = 0.0;
  for (std::size_t u = 0; u < moving.size(); ++u) {
    const RigidBody& b = bodies[moving[u]];
    s += b.mass * gravity.dot(v ? Vec3(v->segment<3>(6 * u)) : b.v);
  }
  return 0.5 * h * s;
}

}  // namespace affix
