#pragma once
// An MJCF or URDF file compiled by MuJoCo's own compiler (Debian libmujoco-dev, mj_loadXML): defaults,
// classes and includes resolved, inertias computed from geoms where the file asks for that, URDF static
// links fused. The importer reads the compiled mjModel, never the XML, so affix agrees with MuJoCo about
// what a model means. The pose is MuJoCo's reference configuration qpos0 (mj_kinematics on it).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

#include "affix/math/types.hpp"

namespace affix {

class MujocoModel {
 public:
  /// Loads and compiles `file`; throws InputError naming the file and MuJoCo's message (which names
  /// the XML element and line) when MuJoCo refuses it.
  explicit MujocoModel(const std::filesystem::path& file);

  const mjModel& model() const { return *model_; }
  const mjData& data() const { return *data_; }
  /// Warnings MuJoCo's compiler raised while loading (kept, not printed: the importer reports them).
  const std::vector<std::string>& compiler_warnings() const { return warnings_; }

  /// The object's name, or `fallback` + id when the file gave none.
  std::string name(mjtObj type, int id, const char* fallback) const;

  // World frame at qpos0.
  Vec3 body_position(int body) const;
  Quat body_rotation(int body) const;
  Vec3 joint_anchor(int joint) const;
  Vec3 joint_axis(int joint) const;

 private:
  struct ModelDeleter {
    void operator()(mjModel* m) const { mj_deleteModel(m); }
  };
  struct DataDeleter {
    void operator()(mjData* d) const { mj_deleteData(d); }
  };
  std::unique_ptr<mjModel, ModelDeleter> model_;
  std::unique_ptr<mjData, DataDeleter> data_;
  std::vector<std::string> warnings_;
};

/// MuJoCo's quaternion [w, x, y, z] at `q`.
inline Quat mj_quat(const mjtNum* q) { return Quat(q[0], q[1], q[2], q[3]).normalized(); }
inline Vec3 mj_vec(const mjtNum* v) { return Vec3(v[0], v[1], v[2]); }

}  // namespace affix
