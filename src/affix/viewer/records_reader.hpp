#pragma once
// joints.csv and contacts.csv (DESIGN §4, io/joints_writer.hpp, io/contacts_writer.hpp) read back for
// the page's joint-anchor and contact-point layers. Both are untrusted input like the run's other
// files: every row used is checked (fields, numbers, body names against meshes.json, frame numbers and
// times against trajectory.csv), what is kept is bounded, and every failure is an InputError
// "<file>: line <n>: <what>".
//
// Joints: the page carries each joint's two anchors in the rest frame of the body that carries them
// (the world's coordinates for `world`) and places them with the poses it shows, so the layer follows
// every frame, those of a full-resolution trajectory.csv loaded later included. The rest points come
// from joints.csv's frame 0 and trajectory.csv's frame 0: x̄ = A₀⁻¹ (x − p₀). An anchor is carried by
// its body (a₁ = A·x̄₁ + p, joints.csv's definition), so the two are the same points at every frame.
//
// Contacts: world points and normals of the frames the page embeds (decimation.hpp), at most
// `max_points` in all: when the kept frames hold more, each frame keeps its first
// max(1, max_points / frames) rows (and the page says so).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "affix/math/types.hpp"
#include "affix/viewer/trajectory_reader.hpp"

namespace affix::viewer {

struct JointAnchors {
  std::string name;
  int body1 = 0;              ///< index into meshes.json's bodies
  int body2 = -1;             ///< −1: the world
  Vec3 anchor1 = Vec3::Zero();  ///< body1's rest frame
  Vec3 anchor2 = Vec3::Zero();  ///< body2's rest frame (world coordinates for −1)
};

struct JointLayer {
  std::vector<JointAnchors> joints;  ///< frame 0's joints in file order, at most max_joints
  int total = 0;                     ///< joints in frame 0 of the file
};

/// Reads frame 0 of `file` (the rows up to the first of another frame) against meshes.json's
/// `body_names` and trajectory.csv's frame 0 (`frames`, whose first kept frame is frame 0). A file
/// with no rows gives no joints.
JointLayer read_joint_layer(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                            const PoseFrames& frames, std::size_t max_joints);

struct ContactLayer {
  std::vector<int> frames;              ///< trajectory.csv frame numbers that have contacts, increasing
  std::vector<std::uint32_t> offsets;   ///< frames.size() + 1: frame i's contacts are [offsets[i], offsets[i+1])
  std::vector<float> points;            ///< x y z per contact, world
  std::vector<float> normals;           ///< nx ny nz per contact, unit, from body2 towards body1
  std::vector<float> forces;            ///< N per contact
  std::size_t rows = 0;                 ///< contacts of the embedded frames in the file
  std::size_t per_frame_cap = 0;        ///< the most contacts kept per frame
  bool capped = false;                  ///< some frame had more than per_frame_cap
};

/// Reads the rows of `file` whose frames `frames` embeds (the others are skipped after their frame
/// number is checked: whole, in increasing order, one of trajectory.csv's), against meshes.json's
/// `body_names` (body2 may be `ground`) and the embedded frames' times.
ContactLayer read_contact_layer(const std::filesystem::path& file, const std::vector<std::string>& body_names,
                                const PoseFrames& frames, std::size_t max_points);

}  // namespace affix::viewer
