#pragma once
// URDF meshes MuJoCo 2.2.2 cannot open by itself. Its compiler reads binary STL, OBJ and MSH only, and
// looks for a URDF mesh by its bare file name in the URDF's directory (or <mujoco><compiler meshdir>),
// dropping `package://pkg/` and any folders. ROS robots give COLLADA (.dae) meshes under
// `package://` paths beside a `urdf/` folder. So before MuJoCo compiles a URDF, affix reads it with
// tinyxml2 (Debian libtinyxml2-dev), finds every <mesh filename> that MuJoCo would not find or not
// read, converts the ones in other formats to binary STL through Assimp (geometry/assimp_loader), and
// hands MuJoCo the rewritten URDF and those meshes in a virtual file system (mjVFS): the model's own
// files are never touched, and everything else is MuJoCo's compile as before.
#include <filesystem>
#include <memory>

#include <mujoco/mujoco.h>

namespace affix {

struct VfsDeleter {
  void operator()(mjVFS* vfs) const;
};
using VfsPtr = std::unique_ptr<mjVFS, VfsDeleter>;

/// The files to compile `urdf` from: nullptr when MuJoCo finds and reads every mesh itself (or the
/// file is not a URDF), else a VFS with the rewritten URDF (under its own file name) and the meshes
/// it now names. A mesh file is looked for, in order, where the URDF says (relative to its directory,
/// `file://` absolute, `package://pkg/rest` as rest under the URDF's directory and its two parents,
/// then under each $ROS_PACKAGE_PATH entry's pkg/), then where MuJoCo would look. Throws InputError
/// naming the URDF, the link and the mesh when a mesh MuJoCo cannot read is nowhere to be found or
/// cannot be converted.
VfsPtr urdf_mesh_files(const std::filesystem::path& urdf);

}  // namespace affix
