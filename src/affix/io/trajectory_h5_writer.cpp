#include "affix/io/trajectory_h5_writer.hpp"

#include <fcntl.h>
#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <utility>

#include "affix/error.hpp"
#include "affix/io/trajectory_h5_layout.hpp"

namespace affix {

namespace {

namespace fs = std::filesystem;
using namespace h5_layout;

// /position and /rotation in chunks of one frame and at most 8192 bodies (a rotation chunk is at most
// 576 KiB), each compressed once, when its frame is written: byte shuffle and deflate level 1, HDF5's
// own filters, which every HDF5 reader has. They halve a pile's poses at little cost (a frame of a
// million bodies in about a second) and shrink resting bodies' much more.
constexpr hsize_t kChunkBodies = 8192;
constexpr unsigned kDeflateLevel = 1;
constexpr hsize_t kTimeChunk = 1024;  // frames of /time per chunk (8 KiB, not compressed)
// Room on disk beyond HDF5's allocated size that a flush must find before it starts: more than the
// metadata one frame adds (the grown chunk indices), which HDF5 places at the end of the file.
constexpr off_t kFlushRoom = 64 << 10;

/// Rows per chunk for `count` rows (bodies or joints): equal chunks of at most kChunkBodies, since HDF5
/// allocates an edge chunk whole (12,000 bodies in chunks of 8192 would store 16,384).
hsize_t rows_per_chunk(hsize_t count) {
  const hsize_t chunks = (count - 1) / kChunkBodies + 1;  // ⌈count / kChunkBodies⌉
  return (count + chunks - 1) / chunks;                   // ⌈count / chunks⌉ ≤ kChunkBodies
}

/// Writing fails as output does: an OutputError, which stops the run and goes into its summary.
template <typename T>
T check(T value, const fs::path& file, std::string_view what) {
  return h5::check<OutputError>(value, file, what);
}

/// A variable-length UTF-8 string type: what h5py reads as `str` (for the attributes).
h5::Handle utf8_string_type(const fs::path& file) {
  h5::Handle type(check(H5Tcopy(H5T_C_S1), file, "cannot make the string type"), H5Tclose);
  check(H5Tset_size(type.get(), H5T_VARIABLE), file, "cannot make the string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), file, "cannot make the string type");
  return type;
}

void write_attribute(hid_t object, const char* name, const std::string& value, const fs::path& file) {
  const std::string what = std::string("cannot write the attribute ") + name;
  const h5::Handle type = utf8_string_type(file);
  const h5::Handle space(check(H5Screate(H5S_SCALAR), file, what), H5Sclose);
  const h5::Handle attribute(
      check(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), file, what), H5Aclose);
  const char* text = value.c_str();
  check(H5Awrite(attribute.get(), type.get(), &text), file, what);
}

void write_attribute(hid_t object, const char* name, int value, const fs::path& file) {
  const std::string what = std::string("cannot write the attribute ") + name;
  const h5::Handle space(check(H5Screate(H5S_SCALAR), file, what), H5Sclose);
  const h5::Handle attribute(
      check(H5Acreate2(object, name, H5T_STD_I32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), file, what), H5Aclose);
  check(H5Awrite(attribute.get(), H5T_NATIVE_INT, &value), file, what);
}

/// Writes /body (or /joint…): the names as fixed-length UTF-8 strings as long as the longest (null-padded). Fixed,
/// not variable-length, strings: they are stored in the dataset itself, where a reader checks their
/// size, instead of HDF5's global heap, whose damaged records crash the library's reader.
void write_names(hid_t parent, const char* name, const std::vector<std::string>& names, const char* description,
                 const fs::path& file) {
  const std::string what = std::string("cannot write the dataset /") + name;
  std::size_t longest = 1;
  for (const std::string& name : names) longest = std::max(longest, name.size());
  const h5::Handle type(check(H5Tcopy(H5T_C_S1), file, what), H5Tclose);
  check(H5Tset_size(type.get(), longest), file, what);
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), file, what);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), file, what);
  std::vector<char> text(names.size() * longest, '\0');
  for (std::size_t b = 0; b < names.size(); ++b) std::copy(names[b].begin(), names[b].end(), &text[b * longest]);
  const hsize_t count = names.size();
  const h5::Handle space(check(H5Screate_simple(1, &count, nullptr), file, what), H5Sclose);
  const h5::Handle dataset(
      check(H5Dcreate2(parent, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), file, what),
      H5Dclose);
  check(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()), file, what);
  write_attribute(dataset.get(), "description", description, file);
}

/// A float64 dataset of shape [0][frame_shape…], extendible along its first axis and chunked by `chunk`
/// (its first entry counts frames), compressed or not, described by its `units` and `description`.
h5::Handle frame_dataset(hid_t parent, const char* name, std::vector<hsize_t> frame_shape, std::vector<hsize_t> chunk,
                         bool compressed, const char* units, const char* description, const fs::path& file) {
  const std::string what = std::string("cannot create the dataset /") + name;
  std::vector<hsize_t> dims{0}, max{H5S_UNLIMITED};
  dims.insert(dims.end(), frame_shape.begin(), frame_shape.end());
  max.insert(max.end(), frame_shape.begin(), frame_shape.end());
  const int rank = static_cast<int>(dims.size());
  const h5::Handle space(check(H5Screate_simple(rank, dims.data(), max.data()), file, what), H5Sclose);
  const h5::Handle properties(check(H5Pcreate(H5P_DATASET_CREATE), file, what), H5Pclose);
  check(H5Pset_chunk(properties.get(), rank, chunk.data()), file, what);
  if (compressed) {
    check(H5Pset_shuffle(properties.get()), file, what);
    check(H5Pset_deflate(properties.get(), kDeflateLevel), file, what);
  }
  // No fill values and no chunk cache: a frame's numbers go to disk inside H5Dwrite, before any
  // metadata that points to them (see flush), and nothing else is written for them. A compressed chunk
  // is written whole, by the one write of its frame.
  check(H5Pset_fill_time(properties.get(), H5D_FILL_TIME_NEVER), file, what);
  const h5::Handle access(check(H5Pcreate(H5P_DATASET_ACCESS), file, what), H5Pclose);
  check(H5Pset_chunk_cache(access.get(), 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT), file, what);
  h5::Handle dataset(check(H5Dcreate2(parent, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, properties.get(),
                                      access.get()),
                           file, what),
                     H5Dclose);
  write_attribute(dataset.get(), "units", units, file);
  write_attribute(dataset.get(), "description", description, file);
  return dataset;
}

/// Writes `data` into frame `frame` of `dataset`, whose frame axis already reaches past it.
void write_frame_slab(hid_t dataset, hsize_t frame, const std::vector<double>& data, const fs::path& file,
                      const char* name) {
  const std::string what = std::string("writing /") + name + " failed";
  const h5::Handle space(check(H5Dget_space(dataset), file, what), H5Sclose);
  const int rank = check(H5Sget_simple_extent_ndims(space.get()), file, what);
  std::vector<hsize_t> start(rank, 0), count(rank);
  check(H5Sget_simple_extent_dims(space.get(), count.data(), nullptr), file, what);
  start[0] = frame;
  count[0] = 1;
  check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr), file, what);
  const h5::Handle memory(check(H5Screate_simple(rank, count.data(), nullptr), file, what), H5Sclose);
  check(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, data.data()), file, what);
}

}  // namespace

TrajectoryH5Writer::TrajectoryH5Writer(const fs::path& path, const std::vector<std::string>& body_names)
    : TrajectoryH5Writer(path, body_names, JointTable()) {}

TrajectoryH5Writer::TrajectoryH5Writer(const fs::path& path, const std::vector<std::string>& body_names,
                                       JointTable joints)
    : path_(path), bodies_(body_names.size()), joints_(std::move(joints)) {
  assert(!body_names.empty());
  h5::prepare();
  file_ = h5::Handle(check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), path,
                           "cannot create the output file"),
                     H5Fclose);
  const hid_t root = file_.get();
  write_attribute(root, kFormatAttribute, kFormatName, path);
  write_attribute(root, kVersionAttribute, kFormatVersion, path);

  write_names(root, kBody, body_names, "body names, in scene order", path);
  const hsize_t b = bodies_;
  const hsize_t n = rows_per_chunk(b);
  time_ = frame_dataset(root, kTime, {}, {kTimeChunk}, false, "s", "simulated time of the state each frame shows",
                        path);
  position_ = frame_dataset(root, kPosition, {b, 3}, {1, n, 3}, true, "m",
                            "p = (x, y, z) per frame and body; a rest point x̄ lands at A·x̄ + p", path);
  rotation_ = frame_dataset(root, kRotation, {b, 3, 3}, {1, n, 3, 3}, true, "1",
                            "A per frame and body, row-major: [i][j] = a_ij; a rest point x̄ lands at A·x̄ + p", path);
  if (joints_.size() > 0) create_joint_datasets();
  flush();
}

void TrajectoryH5Writer::create_joint_datasets() {
  const hid_t root = file_.get();
  const std::size_t count = joints_.size();
  std::vector<std::string> name(count), body1(count), body2(count);
  for (std::size_t j = 0; j < count; ++j) {
    std::vector<std::string> fields = joints_.names(j);
    assert(fields.size() == 3);
    name[j] = std::move(fields[0]);
    body1[j] = std::move(fields[1]);
    body2[j] = std::move(fields[2]);
  }
  write_names(root, kJoint, name, "joint names, in scene order (joints.csv's joint)", path_);
  write_names(root, kJointBody1, body1, "each joint's body1 (joints.csv's body1)", path_);
  write_names(root, kJointBody2, body2, "each joint's body2, world for none (joints.csv's body2)", path_);
  const hsize_t J = count;
  const hsize_t n = rows_per_chunk(J);
  joint_anchor1_ = frame_dataset(root, kJointAnchor1, {J, 3}, {1, n, 3}, true, "m",
                                 "(x1, y1, z1): the joint frame's origin as body1 carries it, world", path_);
  joint_anchor2_ = frame_dataset(root, kJointAnchor2, {J, 3}, {1, n, 3}, true, "m",
                                 "(x2, y2, z2): the joint frame's origin as body2 carries it, world", path_);
  joint_axis1_ = frame_dataset(root, kJointAxis1, {J, 3}, {1, n, 3}, true, "1",
                               "(ax1, ay1, az1): the joint frame's x axis as body1 carries it", path_);
  joint_axis2_ = frame_dataset(root, kJointAxis2, {J, 3}, {1, n, 3}, true, "1",
                               "(ax2, ay2, az2): the joint frame's x axis as body2 carries it", path_);
  joint_error_ = frame_dataset(root, kJointError, {J}, {1, n}, true, "m",
                               "the gap the two anchors show (joints.csv's error)", path_);
}

TrajectoryH5Writer::~TrajectoryH5Writer() {
  if (!failed_) return;  // the Handles close the datasets, then the file
  for (h5::Handle* handle : {&joint_error_, &joint_axis2_, &joint_axis1_, &joint_anchor2_, &joint_anchor1_, &rotation_,
                             &position_, &time_, &file_})
    handle->release();
}

void TrajectoryH5Writer::write_frame(int frame, double time, const std::vector<BodyPose>& poses) {
  assert(joints_.size() == 0);  // a writer with joints is given their records with every frame
  write_frame(frame, time, poses, {});
}

void TrajectoryH5Writer::write_frame(int frame, double time, const std::vector<BodyPose>& poses,
                                     const std::vector<JointRecord>& joints) {
  assert(frame >= 0 && static_cast<unsigned long long>(frame) == frames_);
  assert(poses.size() == bodies_);
  assert(joints.size() == joints_.size());
  (void)frame;  // the frame axis counts frames; the argument only says which one the loop means
  if (failed_) throw OutputError(path_.string() + ": writing failed earlier; nothing more is written");
  try {
    append(time, poses, joints);
  } catch (const OutputError&) {
    failed_ = true;
    throw;
  }
  ++frames_;
}

void TrajectoryH5Writer::append(double time, const std::vector<BodyPose>& poses,
                                const std::vector<JointRecord>& joints) {
  std::vector<double> p, A;
  p.reserve(3 * bodies_);
  A.reserve(9 * bodies_);
  for (const BodyPose& pose : poses) {
    for (int i = 0; i < 3; ++i) p.push_back(pose.p(i));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) A.push_back(pose.A(i, j));  // row-major, as trajectory.csv's a_ij
  }
  const hsize_t frames = frames_ + 1;
  const std::array<hsize_t, 1> time_dims{frames};
  const std::array<hsize_t, 3> position_dims{frames, bodies_, 3};
  const std::array<hsize_t, 4> rotation_dims{frames, bodies_, 3, 3};
  check(H5Dset_extent(time_.get(), time_dims.data()), path_, "writing failed");
  check(H5Dset_extent(position_.get(), position_dims.data()), path_, "writing failed");
  check(H5Dset_extent(rotation_.get(), rotation_dims.data()), path_, "writing failed");
  write_frame_slab(position_.get(), frames_, p, path_, kPosition);
  write_frame_slab(rotation_.get(), frames_, A, path_, kRotation);
  if (joints_.size() > 0) append_joints(joints, frames);
  write_frame_slab(time_.get(), frames_, {time}, path_, kTime);
  flush();
}

void TrajectoryH5Writer::append_joints(const std::vector<JointRecord>& joints, unsigned long long frames) {
  const std::size_t count = joints_.size();
  // Row r.joint holds record r (joints.csv's rows in record order name their joint the same way).
  std::vector<double> anchor1(3 * count), anchor2(3 * count), axis1(3 * count), axis2(3 * count), error(count);
  for (const JointRecord& r : joints) {
    assert(r.joint >= 0 && static_cast<std::size_t>(r.joint) < count);
    const auto j = static_cast<std::size_t>(r.joint);
    for (int i = 0; i < 3; ++i) {
      anchor1[3 * j + i] = r.anchor1(i);
      anchor2[3 * j + i] = r.anchor2(i);
      axis1[3 * j + i] = r.axis1(i);
      axis2[3 * j + i] = r.axis2(i);
    }
    error[j] = joints_.gap(j, r);
  }
  const std::array<hsize_t, 3> vector_dims{hsize_t{frames}, count, 3};
  const std::array<hsize_t, 2> error_dims{hsize_t{frames}, count};
  for (const h5::Handle* dataset : {&joint_anchor1_, &joint_anchor2_, &joint_axis1_, &joint_axis2_})
    check(H5Dset_extent(dataset->get(), vector_dims.data()), path_, "writing failed");
  check(H5Dset_extent(joint_error_.get(), error_dims.data()), path_, "writing failed");
  write_frame_slab(joint_anchor1_.get(), frames_, anchor1, path_, kJointAnchor1);
  write_frame_slab(joint_anchor2_.get(), frames_, anchor2, path_, kJointAnchor2);
  write_frame_slab(joint_axis1_.get(), frames_, axis1, path_, kJointAxis1);
  write_frame_slab(joint_axis2_.get(), frames_, axis2, path_, kJointAxis2);
  write_frame_slab(joint_error_.get(), frames_, error, path_, kJointError);
}

void TrajectoryH5Writer::flush() {
  // HDF5 goes on with a flush after a write in it fails, and ends by writing a superblock that claims
  // the new size: a file no reader opens ("truncated file"). So the room is taken first; when the disk
  // has none, the file stays as the last flush left it, every frame before this one readable.
  const std::string what = "writing failed";
  const auto fail = [&](int error) { throw OutputError(path_.string() + ": " + what + " (" + std::strerror(error) + ")"); };
  const auto allocated = [&] {
    hsize_t size = 0;  // the larger of HDF5's allocated size and the end of what it wrote
    check(H5Fget_filesize(file_.get(), &size), path_, what);
    return static_cast<off_t>(size);
  };
  const h5::Handle access(check(H5Fget_access_plist(file_.get()), path_, what), H5Pclose);
  void* handle = nullptr;
  check(H5Fget_vfd_handle(file_.get(), access.get(), &handle), path_, what);
  const int fd = *static_cast<int*>(handle);  // the default (sec2) driver's handle is the descriptor
  struct stat status {};
  if (::fstat(fd, &status) != 0) fail(errno);
  const off_t needed = allocated() + kFlushRoom;
  if (status.st_size < needed)
    if (const int error = ::posix_fallocate(fd, status.st_size, needed - status.st_size); error != 0) fail(error);
  check(H5Fflush(file_.get(), H5F_SCOPE_LOCAL), path_, what);
  // The room not used goes back: the file ends where HDF5's data ends, as its superblock says.
  if (::ftruncate(fd, allocated()) != 0) fail(errno);
}

}  // namespace affix
