#include "affix/scene/scene_loader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "affix/error.hpp"
#include "affix/math/excerpt.hpp"
#include "affix/math/number_text.hpp"
#include "affix/scene/body_names.hpp"
#include "affix/scene/body_reader.hpp"
#include "affix/scene/joint_reader.hpp"
#include "affix/scene/json_reader.hpp"
#include "affix/scene/json_text.hpp"
#include "affix/scene/parallel_scene_reader.hpp"
#include "affix/scene/settings_reader.hpp"

namespace affix {

namespace {

constexpr int kFormatVersion = 1;

/// The text of a scene file, read only if it is a regular file (or a link to one) of at most
/// kMaxSceneFileBytes: /dev/zero or a FIFO would read forever or block, and a file of gigabytes would
/// be held several times over by the parser. The checks are made on the opened descriptor (O_NONBLOCK
/// so that opening a FIFO does not wait for a writer), and the read stops at the limit even if the file
/// grows meanwhile.
/// The file's bytes in a buffer of exactly `size` bytes read (not zero-filled first: for a gigabyte
/// of scene that is a second pass over it).
struct FileText {
  std::unique_ptr<char[]> bytes;
  std::size_t size = 0;
  std::string_view view() const { return {bytes.get(), size}; }
};

/// Files this large are read by several threads at once: copying a gigabyte out of the page cache, and
/// the kernel's zeroing of the buffer's fresh pages, took one core a second.
constexpr std::size_t kParallelReadBytes = std::size_t{64} << 20;
constexpr std::size_t kReadChunkBytes = std::size_t{16} << 20;

/// Reads bytes [0, size) of `fd` into `out` in chunks on all cores; false unless every byte was read
/// (the file shrank, or a read failed: the caller reads it again in order, and says why).
bool read_in_parallel(int fd, char* out, std::size_t size) {
  std::atomic<bool> complete = true;
  tbb::parallel_for(std::size_t{0}, (size + kReadChunkBytes - 1) / kReadChunkBytes, [&](std::size_t chunk) {
    std::size_t at = chunk * kReadChunkBytes;
    const std::size_t end = std::min(size, at + kReadChunkBytes);
    while (at < end) {
      const ::ssize_t got = ::pread(fd, out + at, end - at, static_cast<off_t>(at));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        complete = false;
        return;
      }
      at += static_cast<std::size_t>(got);
    }
  });
  return complete;
}

FileText read_text(const std::filesystem::path& file) {
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
  std::size_t capacity = static_cast<std::size_t>(info.st_size) + 1;
  FileText text{std::make_unique_for_overwrite<char[]>(capacity), 0};
  const auto size = static_cast<std::size_t>(info.st_size);
  if (size >= kParallelReadBytes && read_in_parallel(fd, text.bytes.get(), size)) {
    text.size = size;  // then on as below, from there: the file may have grown since
    if (::lseek(fd, static_cast<off_t>(size), SEEK_SET) < 0) fail(std::strerror(errno));
  }
  for (;;) {
    if (text.size == capacity) {
      if (capacity > kMaxSceneFileBytes) too_large(capacity);  // it grew while being read
      const std::size_t larger = std::max<std::size_t>(2 * capacity, 4096);
      auto bytes = std::make_unique_for_overwrite<char[]>(larger);
      std::memcpy(bytes.get(), text.bytes.get(), text.size);
      text.bytes = std::move(bytes);
      capacity = larger;
    }
    const ::ssize_t got = ::read(fd, text.bytes.get() + text.size, capacity - text.size);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(std::strerror(errno));
    if (got == 0) break;
    text.size += static_cast<std::size_t>(got);
  }
  if (text.size > kMaxSceneFileBytes) too_large(text.size);
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

/// One `exclusions` entry: two different bodies (not the world: the ground has no collision filter).
ExclusionDef read_exclusion(const JsonReader& value, const BodyNames& bodies) {
  const ObjectReader obj(value, {"body1", "body2"}, "an exclusion");
  ExclusionDef exclusion;
  int* const indices[2] = {&exclusion.body1_index, &exclusion.body2_index};
  std::string* const names[2] = {&exclusion.body1, &exclusion.body2};
  for (int k = 0; k < 2; ++k) {
    const JsonReader name = obj.at(k == 0 ? "body1" : "body2");
    *names[k] = name.non_empty_string();
    const std::optional<int> index = bodies.find(*names[k]);
    if (!index || *index < 0) {
      name.fail("unknown body '" + excerpt(*names[k]) + "' (expected the name of one of the bodies)");
    }
    *indices[k] = *index;
  }
  if (exclusion.body1_index == exclusion.body2_index) {
    obj.at("body2").expected("a body other than body1");
  }
  return exclusion;
}

void read_version(const JsonReader& value) {
  if (value.integer() != kFormatVersion) value.expected("version " + std::to_string(kFormatVersion));
}

/// Joints and forces refer to bodies by name, so names must be unique. The index of names built for
/// that check becomes the scene's BodyNames.
class BodyList {
 public:
  void add(const JsonReader& item, std::size_t i, const std::filesystem::path& scene_dir, Scene& scene) {
    scene.bodies.push_back(read_body(item, scene_dir));
    const auto [it, inserted] = seen_.emplace(scene.bodies.back().name, static_cast<int>(i));
    if (!inserted) {
      item.child("name").expected("a unique body name (bodies[" + std::to_string(it->second) + "] has it too)");
    }
  }

  BodyNames take_names() { return BodyNames(std::move(seen_)); }

 private:
  std::unordered_map<std::string, int> seen_;
};

/// Joint names identify joints in warnings, messages and joints.csv, so they must be unique too. A
/// default name ("joint3") counts: an explicit "joint3" elsewhere would be ambiguous.
class JointList {
 public:
  void add(const JsonReader& item, std::size_t i, const BodyNames& names, Scene& scene) {
    scene.joints.push_back(read_joint(item, static_cast<int>(i), names));
    const std::string& name = scene.joints.back().name;
    const auto [it, inserted] = seen_.emplace(name, i);
    if (inserted) return;
    // Name the joint whose `name` field repeats one; if this one has the default name, the other has it.
    const bool here_explicit = item.json().contains("name");
    const std::size_t at = here_explicit ? i : it->second;
    const std::size_t other = here_explicit ? it->second : i;
    // (the other joint may have been read and dropped already: its path is all the message needs)
    const JsonReader named(item.json(), "joints[" + std::to_string(at) + "].name", item.file());
    named.fail("duplicate joint name '" + excerpt(name) + "' (joints[" + std::to_string(other) +
               "] has it too; expected a unique name)");
  }

 private:
  std::unordered_map<std::string, std::size_t> seen_;
};

BodyNames read_bodies(const JsonReader& value, const std::filesystem::path& scene_dir, Scene& scene) {
  BodyList list;
  const auto items = value.non_empty_array();
  for (std::size_t i = 0; i < items.size(); ++i) list.add(items[i], i, scene_dir, scene);
  return list.take_names();
}

void read_joints(const JsonReader& value, const BodyNames& names, Scene& scene) {
  JointList list;
  const auto items = value.array();
  for (std::size_t i = 0; i < items.size(); ++i) list.add(items[i], i, names, scene);
}

/// The bodies and joints of a scene file read while it is parsed, one element at a time (the
/// TopLevelElementSink of parse_json_text): a 10⁶-link chain as a whole document would take gigabytes
/// of nlohmann values. Each element is read exactly as read_bodies and read_joints read it, and the
/// first error is kept rather than thrown, so that parse_scene reports errors in the same order as for
/// a whole document: syntax first, then the top-level fields, settings and ground, then bodies, then
/// joints. Joints are read this way only when the whole body array came before them in the file (their
/// bodies must be known); otherwise they stay in the document and are read from there.
class StreamedElements {
 public:
  explicit StreamedElements(const std::filesystem::path& file) : file_(file) {}

  bool take(std::string_view key, std::size_t index, const nlohmann::json& element) {
    if (key == "bodies" && !bodies_done_) return take_body(index, element);
    if (key == "joints" && bodies_streamed_) return take_joint(index, element);
    return false;
  }

  /// Fills scene.bodies and returns their names (when the file's bodies were read here), and throws
  /// the first error found.
  std::optional<BodyNames> finish_bodies(Scene& scene) {
    if (!bodies_streamed_) return std::nullopt;
    if (body_error_) std::rethrow_exception(body_error_);
    scene.bodies = std::move(scene_.bodies);
    if (!names_) names_.emplace(bodies_.take_names());
    return std::move(names_);
  }

  bool finish_joints(Scene& scene) {
    if (!joints_streamed_) return false;
    if (joint_error_) std::rethrow_exception(joint_error_);
    scene.joints = std::move(scene_.joints);
    return true;
  }

 private:
  bool take_body(std::size_t index, const nlohmann::json& element) {
    bodies_streamed_ = true;
    if (body_error_) return true;  // the scene is refused at the first bad body anyway
    try {
      bodies_.add(JsonReader(element, "bodies[" + std::to_string(index) + "]", file_), index,
                  file_.parent_path(), scene_);
    } catch (const InputError&) {
      body_error_ = std::current_exception();
    }
    return true;
  }

  bool take_joint(std::size_t index, const nlohmann::json& element) {
    if (!joints_streamed_) {
      joints_streamed_ = true;
      bodies_done_ = true;  // a second "bodies" array would be a duplicate key, refused by the parser
      if (!body_error_) names_.emplace(bodies_.take_names());
    }
    if (body_error_ || joint_error_) return true;  // the first error is reported, not this element
    try {
      joints_.add(JsonReader(element, "joints[" + std::to_string(index) + "]", file_), index, *names_, scene_);
    } catch (const InputError&) {
      joint_error_ = std::current_exception();
    }
    return true;
  }

  const std::filesystem::path& file_;
  Scene scene_;  // the bodies and joints read so far
  BodyList bodies_;
  JointList joints_;
  std::optional<BodyNames> names_;
  bool bodies_streamed_ = false, bodies_done_ = false, joints_streamed_ = false;
  std::exception_ptr body_error_, joint_error_;
};

/// `streamed` or `parallel`: the bodies and joints read already, if any.
Scene read_scene(const nlohmann::json& root, const std::filesystem::path& file, StreamedElements* streamed,
                 ParallelElements* parallel = nullptr) {
  const JsonReader doc(root, file);
  const ObjectReader obj(doc, {"version", "settings", "ground", "bodies", "joints", "forces", "exclusions"});
  Scene scene;
  scene.name = file.stem().string();
  scene.file = file;
  if (auto v = obj.find("version")) read_version(*v);
  if (auto v = obj.find("settings")) scene.settings = read_settings(*v);
  if (auto v = obj.find("ground")) scene.ground = read_ground(*v);
  const JsonReader bodies = obj.at("bodies");  // required even when read already
  std::optional<BodyNames> streamed_names;
  if (streamed) streamed_names = streamed->finish_bodies(scene);
  if (parallel) {
    scene.bodies = std::move(parallel->bodies);
    streamed_names = std::move(parallel->names);
  }
  const BodyNames names =
      streamed_names ? std::move(*streamed_names) : read_bodies(bodies, file.parent_path(), scene);
  if (parallel && parallel->joints) {
    scene.joints = std::move(*parallel->joints);
  } else if (!(streamed && streamed->finish_joints(scene))) {
    if (auto v = obj.find("joints")) read_joints(*v, names, scene);
  }
  if (auto v = obj.find("forces")) {
    for (const JsonReader& item : v->array()) scene.forces.push_back(read_force(item, names));
  }
  if (auto v = obj.find("exclusions")) {
    for (const JsonReader& item : v->array()) scene.exclusions.push_back(read_exclusion(item, names));
  }
  return scene;
}

}  // namespace

Scene parse_scene(const nlohmann::json& root, const std::filesystem::path& file) {
  return read_scene(root, file, nullptr);
}

Scene load_scene(const std::filesystem::path& file) {
  auto text = std::make_unique<FileText>(read_text(file));
  // A valid scene is read on all cores; anything else, serially, for the message (parallel_scene_reader.hpp).
  if (auto parallel = read_elements_in_parallel(text->view(), file)) {
    try {
      return read_scene(parallel->rest, file, nullptr, &*parallel);
    } catch (const InputError&) {
      // a fault outside the bodies and joints (settings, forces…): named by the serial reader below
    }
  }
  StreamedElements streamed(file);
  const nlohmann::json root =
      parse_json_text(text->view(), file, [&](std::string_view key, std::size_t index, nlohmann::json& element) {
        return streamed.take(key, index, element);
      });
  text.reset();  // freed once parsed
  return read_scene(root, file, &streamed);
}

}  // namespace affix
