#include "affix/scene/scene_loader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/number_text.hpp"
#include "affix/scene/body_names.hpp"
#include "affix/scene/body_reader.hpp"
#include "affix/scene/joint_reader.hpp"
#include "affix/scene/json_reader.hpp"
#include "affix/scene/json_text.hpp"
#include "affix/scene/settings_reader.hpp"

namespace affix {

namespace {

constexpr int kFormatVersion = 1;

/// The text of a scene file, read only if it is a regular file (or a link to one) of at most
/// kMaxSceneFileBytes: /dev/zero or a FIFO would read forever or block, and a file of gigabytes would
/// be held several times over by the parser. The checks are made on the opened descriptor (O_NONBLOCK
/// so that opening a FIFO does not wait for a writer), and the read stops at the limit even if the file
/// grows meanwhile.
std::string read_text(const std::filesystem::path& file) {
  const auto fail = [&](const std::string& reason) {
    throw InputError(file.string() + ": cannot read file (" + reason + ")");
  };
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail(std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) fail(std::strerror(errno));
  if (S_ISDIR(info.st_mode)) fail("is a directory");
  if (!S_ISREG(info.st_mode)) fail("not a regular file");
  const auto too_large = [&](std::uintmax_t bytes) {
    fail("expected a scene file of at most 1 GiB, got " + std::to_string(bytes) + " bytes");
  };
  if (static_cast<std::uintmax_t>(info.st_size) > kMaxSceneFileBytes) {
    too_large(static_cast<std::uintmax_t>(info.st_size));
  }
  // One byte more than the size, so that the read which finds the end needs no growth.
  std::string text(static_cast<std::size_t>(info.st_size) + 1, '\0');
  std::size_t length = 0;
  for (;;) {
    if (length == text.size()) {
      if (text.size() > kMaxSceneFileBytes) too_large(text.size());  // it grew while being read
      text.resize(std::max<std::size_t>(2 * text.size(), 4096));
    }
    const ::ssize_t got = ::read(fd, text.data() + length, text.size() - length);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(std::strerror(errno));
    if (got == 0) break;
    length += static_cast<std::size_t>(got);
  }
  if (length > kMaxSceneFileBytes) too_large(length);
  text.resize(length);
  return text;
}

Ground read_ground(const JsonReader& value) {
  const ObjectReader obj(value, {"height", "friction", "damping"});
  Ground ground;
  if (auto v = obj.find("height")) ground.height = v->number();
  if (auto v = obj.find("friction")) ground.friction = v->non_negative();
  if (auto v = obj.find("damping")) ground.damping = v->non_negative();
  return ground;
}

ForceDef read_force(const JsonReader& value, const BodyNames& bodies) {
  const ObjectReader obj(value, {"body", "force", "torque", "point", "start", "end"});
  ForceDef force;
  const JsonReader body = obj.at("body");
  force.body = body.non_empty_string();
  const std::optional<int> index = bodies.find(force.body);
  if (!index || *index < 0) {
    body.fail("unknown body '" + excerpt(force.body) + "' (expected the name of one of the bodies)");
  }
  force.body_index = *index;
  if (!obj.has("force") && !obj.has("torque")) value.expected("at least one of force and torque");
  if (auto v = obj.find("force")) force.force = v->vec3();
  if (auto v = obj.find("torque")) force.torque = v->vec3();
  if (auto v = obj.find("point")) force.point = v->vec3();
  if (auto v = obj.find("start")) force.start = v->non_negative();
  if (auto v = obj.find("end")) {
    force.end = v->number();
    if (!(force.end > force.start)) {
      v->expected("a time after start (" + number_text(force.start) + ")");
    }
  }
  return force;
}

void read_version(const JsonReader& value) {
  if (value.integer() != kFormatVersion) value.expected("version " + std::to_string(kFormatVersion));
}

/// Joints and forces refer to bodies by name, so names must be unique.
void read_bodies(const JsonReader& value, const std::filesystem::path& scene_dir, Scene& scene) {
  std::map<std::string, std::size_t> seen;
  const auto items = value.non_empty_array();
  for (std::size_t i = 0; i < items.size(); ++i) {
    scene.bodies.push_back(read_body(items[i], scene_dir));
    const auto [it, inserted] = seen.emplace(scene.bodies.back().name, i);
    if (!inserted) {
      items[i].child("name").expected("a unique body name (bodies[" + std::to_string(it->second) +
                                      "] has it too)");
    }
  }
}

/// Joint names identify joints in warnings, messages and joints.csv, so they must be unique too. A
/// default name ("joint3") counts: an explicit "joint3" elsewhere would be ambiguous.
void read_joints(const JsonReader& value, const BodyNames& names, Scene& scene) {
  std::map<std::string, std::size_t> seen;
  const auto items = value.array();
  for (std::size_t i = 0; i < items.size(); ++i) {
    scene.joints.push_back(read_joint(items[i], static_cast<int>(i), names));
    const std::string& name = scene.joints.back().name;
    const auto [it, inserted] = seen.emplace(name, i);
    if (inserted) continue;
    // Name the joint whose `name` field repeats one; if this one has the default name, the other has it.
    const bool here_explicit = items[i].json().contains("name");
    const std::size_t at = here_explicit ? i : it->second;
    const std::size_t other = here_explicit ? it->second : i;
    items[at].child("name").fail("duplicate joint name '" + excerpt(name) + "' (joints[" +
                                 std::to_string(other) + "] has it too; expected a unique name)");
  }
}

}  // namespace

Scene parse_scene(const nlohmann::json& root, const std::filesystem::path& file) {
  const JsonReader doc(root, file);
  const ObjectReader obj(doc, {"version", "settings", "ground", "bodies", "joints", "forces"});
  Scene scene;
  scene.name = file.stem().string();
  scene.file = file;
  if (auto v = obj.find("version")) read_version(*v);
  if (auto v = obj.find("settings")) scene.settings = read_settings(*v);
  if (auto v = obj.find("ground")) scene.ground = read_ground(*v);
  read_bodies(obj.at("bodies"), file.parent_path(), scene);
  const BodyNames names(scene.bodies);
  if (auto v = obj.find("joints")) read_joints(*v, names, scene);
  if (auto v = obj.find("forces")) {
    for (const JsonReader& item : v->array()) scene.forces.push_back(read_force(item, names));
  }
  return scene;
}

Scene load_scene(const std::filesystem::path& file) {
  return parse_scene(parse_json_text(read_text(file), file), file);
}

}  // namespace affix
