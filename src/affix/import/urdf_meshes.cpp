#include "affix/import/urdf_meshes.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "affix/error.hpp"
#include "affix/geometry/assimp_loader.hpp"

namespace affix {
namespace fs = std::filesystem;

void VfsDeleter::operator()(mjVFS* vfs) const {
  mj_deleteVFS(vfs);
  delete vfs;
}

namespace {

std::string lower_extension(const fs::path& file) {
  std::string ext = file.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

/// The formats MuJoCo 2.2.2's compiler reads itself (user_mesh.cc).
bool mujoco_reads(const fs::path& file) {
  const std::string ext = lower_extension(file);
  return ext == ".stl" || ext == ".obj" || ext == ".msh";
}

bool is_file(const fs::path& file) {
  std::error_code error;
  return fs::is_regular_file(file, error);
}

/// Where the URDF means `name` to be (see urdf_mesh_files), or nullopt.
std::optional<fs::path> locate(const std::string& name, const fs::path& dir) {
  std::vector<fs::path> candidates;
  constexpr std::string_view kPackage = "package://", kFile = "file://";
  if (name.rfind(kPackage, 0) == 0) {
    const std::string rest = name.substr(kPackage.size());
    const std::size_t slash = rest.find('/');
    const std::string package = rest.substr(0, slash), inside = slash == std::string::npos ? "" : rest.substr(slash + 1);
    for (fs::path d = dir; candidates.size() < 3; d = d.parent_path()) {
      candidates.push_back(d / inside);
      if (d == d.parent_path()) break;
    }
    if (const char* path = std::getenv("ROS_PACKAGE_PATH")) {
      std::stringstream entries(path);
      for (std::string entry; std::getline(entries, entry, ':');)
        if (!entry.empty()) candidates.push_back(fs::path(entry) / package / inside);
    }
  } else if (name.rfind(kFile, 0) == 0) {
    candidates.push_back(name.substr(kFile.size()));
  } else {
    candidates.push_back(dir / name);
  }
  for (const fs::path& c : candidates)
    if (is_file(c)) return c;
  return std::nullopt;
}

/// The meshdir of the URDF's <mujoco><compiler meshdir=...> extension, relative to its directory.
fs::path mujoco_mesh_dir(const tinyxml2::XMLElement& robot, const fs::path& dir) {
  const auto* mujoco = robot.FirstChildElement("mujoco");
  const auto* compiler = mujoco ? mujoco->FirstChildElement("compiler") : nullptr;
  const char* meshdir = compiler ? compiler->Attribute("meshdir") : nullptr;
  return meshdir ? dir / meshdir : dir;
}

/// Binary STL (80-byte header, triangle count, per triangle a normal, three corners as float32 and
/// two attribute bytes), the one STL MuJoCo reads.
std::string binary_stl(const std::vector<Vec3>& corners) {
  std::string bytes(80, '\0');
  const auto put = [&bytes](const void* data, std::size_t n) { bytes.append(static_cast<const char*>(data), n); };
  const auto count = static_cast<std::uint32_t>(corners.size() / 3);
  put(&count, 4);
  for (std::size_t t = 0; t < count; ++t) {
    const float normal[3] = {0, 0, 0};  // MuJoCo recomputes normals
    put(normal, sizeof normal);
    for (std::size_t c = 0; c < 3; ++c) {
      const Vec3& v = corners[3 * t + c];
      const float xyz[3] = {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
      put(xyz, sizeof xyz);
    }
    const std::uint16_t attributes = 0;
    put(&attributes, 2);
  }
  return bytes;
}

void add_to_vfs(mjVFS& vfs, const std::string& name, const std::string& data, const fs::path& urdf) {
  if (mj_makeEmptyFileVFS(&vfs, name.c_str(), static_cast<int>(data.size())) != 0) {
    throw InputError(urdf.string() + ": too many mesh files for MuJoCo's virtual file system (" +
                     std::to_string(mjMAXVFS) + ")");
  }
  std::memcpy(vfs.filedata[mj_findFileVFS(&vfs, name.c_str())], data.data(), data.size());
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The link a <mesh> belongs to, for messages.
std::string link_of(const tinyxml2::XMLElement* e) {
  for (; e; e = e->Parent() ? e->Parent()->ToElement() : nullptr)
    if (std::strcmp(e->Name(), "link") == 0 && e->Attribute("name")) return e->Attribute("name");
  return "?";
}

void collect_meshes(tinyxml2::XMLElement* e, std::vector<tinyxml2::XMLElement*>& out) {
  for (; e; e = e->NextSiblingElement()) {
    if (std::strcmp(e->Name(), "mesh") == 0 && e->Attribute("filename")) out.push_back(e);
    collect_meshes(e->FirstChildElement(), out);
  }
}

}  // namespace

VfsPtr urdf_mesh_files(const fs::path& urdf) {
  if (lower_extension(urdf) != ".urdf") return nullptr;
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(urdf.c_str()) != tinyxml2::XML_SUCCESS) return nullptr;  // MuJoCo reports it
  tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  if (!robot) return nullptr;
  const fs::path dir = urdf.parent_path().empty() ? fs::path(".") : urdf.parent_path();
  const fs::path meshdir = mujoco_mesh_dir(*robot, dir);
  std::vector<tinyxml2::XMLElement*> meshes;
  collect_meshes(robot->FirstChildElement(), meshes);

  VfsPtr vfs(new mjVFS);
  mj_defaultVFS(vfs.get());
  int rewritten = 0;
  for (tinyxml2::XMLElement* mesh : meshes) {
    const std::string name = mesh->Attribute("filename");
    const fs::path mujoco_path = meshdir / fs::path(name).filename();  // MuJoCo drops the folders
    if (mujoco_reads(name) && is_file(mujoco_path)) continue;           // MuJoCo finds it itself
    const std::optional<fs::path> found = locate(name, dir);
    const std::string where = urdf.string() + ": link '" + link_of(mesh) + "': mesh '" + name + "': ";
    if (!found) {
      if (mujoco_reads(name)) continue;  // let MuJoCo say it is missing, as it always has
      throw InputError(where + "no such file (looked for it relative to the URDF, under package:// roots and "
                       "$ROS_PACKAGE_PATH); expected a mesh file");
    }
    // A name of its own in the VFS, which MuJoCo looks files up in by bare name.
    std::string stem = found->stem().string();
    for (char& c : stem) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    const std::string vfs_name = "affix" + std::to_string(rewritten++) + "_" + stem + (mujoco_reads(*found) ? lower_extension(*found) : ".stl");
    if (mujoco_reads(*found)) {
      add_to_vfs(*vfs, vfs_name, read_file(*found), urdf);
    } else {
      try {
        add_to_vfs(*vfs, vfs_name, binary_stl(load_assimp_triangles(*found)), urdf);
      } catch (const std::runtime_error& e) {
        throw InputError(where + e.what());
      }
    }
    mesh->SetAttribute("filename", vfs_name.c_str());
  }
  if (rewritten == 0) return nullptr;
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  add_to_vfs(*vfs, urdf.filename().string(), std::string(printer.CStr(), static_cast<std::size_t>(printer.CStrSize() - 1)), urdf);
  return vfs;
}

}  // namespace affix
