#pragma once
// Helpers shared by the scene tests: a per-test temporary directory to write scene files into, and a
// scene that uses every field of the format (DESIGN §3).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>

namespace affix::test {

/// A fresh directory named after the running test, removed when the test ends.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("affix_scene_") + info->test_suite_name() + "_" + info->name() + "_" +
                       std::to_string(::getpid());
    for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  /// Writes `text` to `name` (sub-directories created) and returns the file's path.
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

/// Every field of the format, each with a value other than its default.
inline const char* const kFullScene = R"json({
  "version": 1,
  "settings": { "dt": 0.005, "duration": 2.5, "gravity": [0, 0, -3.5], "solver": "ipc",
                "integrator": "bdf2", "output_fps": 50,
                "ipc": { "dhat": 2e-3, "epsv": 5e-4, "kappa": 1e5, "tolerance": 1e-5,
                         "max_iterations": 40, "friction_iterations": 3 } },
  "ground": { "height": -0.5, "friction": 0.25 },
  "bodies": [
    { "name": "box", "shape": { "box": [1, 2, 3], "resolution": 2 }, "density": 500,
      "position": [0, 0, 1], "rotation": { "axis": [0, 0, 2], "angle_deg": 90 },
      "velocity": [1, 2, 3], "angular_velocity": [0.1, 0.2, 0.3], "friction": 0.7, "stiffness": 1e8,
      "collision": { "group": 2, "mask": 5 } },
    { "name": "ball", "shape": { "sphere": 0.25, "resolution": 12 }, "mass": 2.5,
      "rotation": [2, 0, 0, 0], "fixed": true },
    { "name": "pill", "shape": { "capsule": { "radius": 0.1, "length": 0.4 }, "resolution": 8 },
      "kinematic": { "velocity": [0, 1, 0], "angular_velocity": [0, 0, 1] } },
    { "name": "can", "shape": { "cylinder": { "radius": 0.2, "length": 0.5 }, "resolution": 16 },
      "kinematic": { "keyframes": [ { "time": 0, "position": [0, 0, 0] },
                                    { "time": 1.5, "position": [1, 0, 0], "rotation": [0, 0, 0, 1] } ] } },
    { "name": "ring", "shape": { "torus": { "major": 1, "minor": 0.2 }, "resolution": 32 } },
    { "name": "rock", "shape": { "mesh": { "file": "meshes/rock.obj", "scale": [1, 2, 3] } } },
    { "name": "pebble", "shape": { "mesh": { "file": "meshes/rock.obj", "scale": 0.5 } } }
  ],
  "joints": [
    { "name": "h", "type": "hinge", "body1": "box", "body2": "world", "anchor": [0, 0, 1.5],
      "axis": [2, 0, 0], "limits_deg": [-45, 90], "collide_connected": true, "stiffness": 1e6,
      "damping": 0.5 },
    { "type": "ball", "body1": "box", "body2": "ball", "anchor": [1, 1, 1] },
    { "type": "prismatic", "body1": "pill", "body2": "box", "anchor": [0, 1, 0], "axis": [0, 3, 0],
      "limits": [-0.5, 0.5] },
    { "type": "universal", "body1": "can", "body2": "box", "anchor": [1, 0, 0],
      "axes": [[1, 0, 0], [0, 0, 5]] },
    { "type": "fixed", "body1": "ring", "body2": "box", "anchor": [2, 0, 0] },
    { "type": "cone_twist", "body1": "rock", "body2": "world", "anchor": [0, 0, 3],
      "frame": [[0, 0, 1], [2, 0, 0], [0, 1, 0]],
      "limits_deg": { "twist": [-30, 30], "swing1": [-60, 60] } },
    { "type": "distance", "body1": "pebble", "body2": "rock", "anchor1": [0, 0, 0], "anchor2": [1, 0, 0],
      "length": 1.25, "min": 0.5, "max": 2 },
    { "type": "slider", "body1": "pebble", "body2": "world", "point": [0, 0, 0], "direction": [0, 0, 2],
      "limits": [0, 1] },
    { "type": "slider", "body1": "ball", "body2": "ring", "point": [1, 0, 0], "normal": [0, 1, 0] }
  ],
  "forces": [
    { "body": "box", "force": [0, 10, 0], "torque": [1, 0, 0], "point": [0, 0, 1], "start": 0.25,
      "end": 0.5 },
    { "body": "ring", "torque": [0, 0, 2] }
  ]
})json";

}  // namespace affix::test
