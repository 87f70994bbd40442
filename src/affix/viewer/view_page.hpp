#pragma once
// `affix view`: one self-contained HTML file that plays a run from disk (file://, no server, no
// network). The page is the template and script bundle of assets.hpp plus the run's data inline:
//   <script type="application/json" id="affix-data">  scene, summary, ground, bodies and their mesh
//        groups (mesh_groups.hpp), frame times, statistics (base64 float64 columns), and the layers
//        (records_reader.hpp): `joints` from joints.csv, [{name, body1, body2, anchor1, anchor2}] with
//        body indices (body2 −1: the world) and anchors in each body's rest frame, [] without the
//        file, and `joint_count`; `contacts` from contacts.csv, null without the file, else {frames,
//        offsets, points, normals, forces (base64 float32), rows, per_frame_cap, capped}
//   <script type="text/plain" id="affix-poses">  the poses: base64 of float32, frame-major, 12 per body
//        (x y z a00 a01 a02 a10 a11 a12 a20 a21 a22), decimated to the pose budget (decimation.hpp)
#include <cstddef>
#include <filesystem>
#include <string>

#include "affix/viewer/decimation.hpp"
#include "affix/viewer/mesh_groups.hpp"

namespace affix::viewer {

inline constexpr std::string_view kPosesElementId = "affix-poses";
inline constexpr std::string_view kDataElementId = "affix-data";

struct ViewOptions {
  std::size_t pose_budget_bytes = kDefaultPoseBudgetBytes;  ///< float32 pose data, before base64
  std::size_t max_stats_points = 20'000;                    ///< points per plotted statistic
  MeshLimits mesh_limits;
  std::size_t max_joints = 100'000;          ///< joints drawn (the first ones of joints.csv)
  std::size_t max_contact_points = 250'000;  ///< contact points embedded, all frames together
};

/// What went into a page, for the command's report and for tests.
struct ViewPage {
  std::string html;
  std::filesystem::path trajectory;  ///< the file the poses came from: trajectory.csv or trajectory.h5
  int bodies = 0;
  int source_frames = 0;      ///< frames in trajectory.csv
  int frames = 0;             ///< frames embedded
  int stride = 1;             ///< every stride-th frame (and the last)
  std::size_t pose_bytes = 0; ///< embedded pose data before base64
  int mesh_groups = 0;        ///< distinct meshes drawn as meshes
  int box_bodies = 0;         ///< bodies drawn as their bounding boxes (too many distinct meshes)
  int joints = 0;             ///< joints whose anchors the page draws (0: no joints.csv)
  bool contacts_recorded = false;  ///< the run wrote contacts.csv
  std::size_t contact_points = 0;  ///< contact points embedded
};

/// Reads out_dir's meshes.json, trajectory.csv (or trajectory.h5 when only that is there), stats.csv
/// and summary.json, and joints.csv and
/// contacts.csv when the run wrote them, and builds the page. Throws InputError naming the file that
/// is missing or malformed.
ViewPage build_view_page(const std::filesystem::path& out_dir, const ViewOptions& options = {});

/// Writes `page.html` to `file`. Throws InputError when it cannot be written.
void write_view_page(const std::filesystem::path& file, const ViewPage& page);

}  // namespace affix::viewer
