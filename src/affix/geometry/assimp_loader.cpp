#include "affix/geometry/assimp_loader.hpp"

#include <stdexcept>
#include <string>

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/version.h>

namespace affix {
namespace {

/// The triangles of `node` and its children, each mesh placed by the product of the transforms from
/// the root down (column-vector convention: world = T_root · … · T_node · local).
void collect(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent, std::vector<Vec3>& out) {
  const aiMatrix4x4 transform = parent * node.mTransformation;
  for (unsigned k = 0; k < node.mNumMeshes; ++k) {
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[k]];
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines have no surface
      for (unsigned c = 0; c < 3; ++c) {
        const aiVector3D p = transform * mesh.mVertices[face.mIndices[c]];
        out.emplace_back(p.x, p.y, p.z);
      }
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c) collect(scene, *node.mChildren[c], transform, out);
}

}  // namespace

std::vector<Vec3> load_assimp_triangles(const std::filesystem::path& file) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    throw std::runtime_error(file.string() + ": " +
                             (std::filesystem::exists(file, error) ? "not a regular file" : "no such file"));
  }
  Assimp::Importer importer;
  // Keep a COLLADA file's coordinates as written (Assimp would rotate a Z_UP file to Y up).
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  // Only the surface: no normals, colours or texture coordinates are needed.
  const aiScene* scene = importer.ReadFile(file.string(), aiProcess_Triangulate);
  if (!scene || !scene->mRootNode) {
    std::string reason = importer.GetErrorString();
    for (char& c : reason)
      if (c == '\n') c = ' ';
    throw std::runtime_error(file.string() + ": cannot read the mesh file (Assimp " +
                             std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) +
                             " says: " + (reason.empty() ? "unknown error" : reason) + ")");
  }
  std::vector<Vec3> triangles;
  collect(*scene, *scene->mRootNode, aiMatrix4x4(), triangles);
  if (triangles.empty()) throw std::runtime_error(file.string() + ": the file has no triangles");
  return triangles;
}

}  // namespace affix
