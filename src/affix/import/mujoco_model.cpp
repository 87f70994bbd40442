#include "affix/import/mujoco_model.hpp"

#include <array>
#include <mutex>

#include "affix/error.hpp"
#include "affix/import/urdf_meshes.hpp"

namespace affix {
namespace {

// MuJoCo reports compiler warnings through one global hook (by default it prints them and appends to
// MUJOCO_LOG.TXT in the working directory); while a model loads, the hook collects them instead.
std::mutex load_mutex;
std::vector<std::string>* collecting = nullptr;

void collect_warning(const char* message) {
  if (collecting) collecting->emplace_back(message);
}

}  // namespace

MujocoModel::MujocoModel(const std::filesystem::path& file) {
  std::array<char, 1024> error{};
  // A URDF whose meshes MuJoCo cannot open itself compiles from a rewritten copy (urdf_meshes.hpp).
  const VfsPtr vfs = urdf_mesh_files(file);
  {
    const std::lock_guard lock(load_mutex);
    auto* const previous = mju_user_warning;
    collecting = &warnings_;
    mju_user_warning = collect_warning;
    model_.reset(mj_loadXML(file.c_str(), vfs.get(), error.data(), static_cast<int>(error.size())));
    mju_user_warning = previous;
    collecting = nullptr;
  }
  if (!model_) {
    std::string reason(error.data());
    while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) reason.pop_back();
    for (char& c : reason)
      if (c == '\n') c = ' ';  // one line, as every affix error
    throw InputError(file.string() + ": cannot import the model (MuJoCo: " +
                     (reason.empty() ? std::string("unknown error") : reason) +
                     "); expected an MJCF or URDF file MuJoCo " + mj_versionString() + " compiles");
  }
  data_.reset(mj_makeData(model_.get()));  // qpos = qpos0
  mj_kinematics(model_.get(), data_.get());
}

std::string MujocoModel::name(mjtObj type, int id, const char* fallback) const {
  const char* n = mj_id2name(model_.get(), type, id);
  if (n && *n) return n;
  return fallback + std::to_string(id);
}

Vec3 MujocoModel::body_position(int body) const { return mj_vec(data_->xpos + 3 * body); }
Quat MujocoModel::body_rotation(int body) const { return mj_quat(data_->xquat + 4 * body); }
Vec3 MujocoModel::joint_anchor(int joint) const { return mj_vec(data_->xanchor + 3 * joint); }
Vec3 MujocoModel::joint_axis(int joint) const { return mj_vec(data_->xaxis + 3 * joint).normalized(); }

}  // namespace affix
