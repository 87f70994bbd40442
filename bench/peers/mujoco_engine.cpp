// MuJoCo 2.2.2 (Debian's libmujoco-dev; mjtNum is double): the model as MJCF text (mjcf.hpp) loaded
// with mj_loadXML, stepped by mj_step at the defaults of <option> — Newton solver, 100 iterations,
// tolerance 1e-8, pyramidal friction cones, Euler integrator, soft constraints (solref 0.02 s, 1) —
// with only the timestep and gravity set. Translation choices: bench/peers/README.md.
#include <mujoco/mujoco.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "affix/error.hpp"
#include "engine.hpp"
#include "mjcf.hpp"
#include "trial.hpp"

namespace affix::peers {

namespace {

// MuJoCo's warnings arrive through a plain function pointer; the child process runs one engine.
std::string g_warnings;

/// MuJoCo's own instability check (bad QACC) warns and then resets the state to the start: stepping on
/// would measure a scene that jumped back, so the run ends there as blown up. Other warnings (a full
/// constraint buffer: constraints dropped) are kept, once each, for the row's note.
void on_warning(const char* message) {
  const std::string text = message;
  if (text.find("unstable") != std::string::npos) fail_trial("MuJoCo: " + text + " (MuJoCo resets the state)", "blew up");
  const std::string kind = text.substr(0, text.find(". Time"));
  if (g_warnings.find(kind) == std::string::npos) g_warnings += (g_warnings.empty() ? "MuJoCo: " : "; ") + kind;
}

class MujocoEngine final : public Engine {
 public:
  explicit MujocoEngine(const BenchInput& input) {
    mju_user_error = [](const char* message) { fail_trial(std::string("MuJoCo error: ") + message); };
    mju_user_warning = on_warning;
    const Mjcf mjcf = write_mjcf(input);
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("affix_peers_" + std::to_string(getpid()) + ".xml");
    std::ofstream(file) << mjcf.xml;
    // AFFIX_PEERS_MJCF=FILE keeps a copy of the translated model, to read or to open in MuJoCo's simulate.
    if (const char* keep = std::getenv("AFFIX_PEERS_MJCF")) std::ofstream(keep) << mjcf.xml;
    char error[1000] = "";
    model_ = mj_loadXML(file.c_str(), nullptr, error, sizeof error);
    std::filesystem::remove(file);
    if (!model_) throw InputError(std::string("MuJoCo could not load the translated model: ") + error);
    data_ = mj_makeData(model_);
    const std::size_t n = input.model.bodies.size();
    ids_.resize(n);
    for (std::size_t i = 0; i < n; ++i) ids_[i] = mj_name2id(model_, mjOBJ_BODY, ("b" + std::to_string(i)).c_str());
    for (const int b : mjcf.free_bodies) {
      const ModelBody& body = input.model.bodies[static_cast<std::size_t>(b)];
      const int dof = model_->jnt_dofadr[model_->body_jntadr[ids_[static_cast<std::size_t>(b)]]];
      // A freejoint's velocity: the body frame origin's, world axes; then ω in the body's own axes.
      const Vec3 w = body.rotation.transpose() * body.angular_velocity;
      for (int k = 0; k < 3; ++k) {
        data_->qvel[dof + k] = body.velocity[k];
        data_->qvel[dof + 3 + k] = w[k];
      }
    }
    mj_forward(model_, data_);
  }

  ~MujocoEngine() override {
    mj_deleteData(data_);
    mj_deleteModel(model_);
  }

  void step() override { mj_step(model_, data_); }
  std::string warnings() const override { return g_warnings; }

  void poses(std::vector<BodyPose>& out) const override {
    for (std::size_t i = 0; i < out.size(); ++i) {
      const mjtNum* p = data_->xpos + 3 * ids_[i];
      const mjtNum* R = data_->xmat + 9 * ids_[i];  // row-major
      out[i].p = {p[0], p[1], p[2]};
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) out[i].A(a, b) = R[3 * a + b];
      }
    }
  }

 private:
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  std::vector<int> ids_;  // model body → MuJoCo body id
};

}  // namespace

std::unique_ptr<Engine> make_mujoco(const BenchInput& input) { return std::make_unique<MujocoEngine>(input); }

}  // namespace affix::peers
