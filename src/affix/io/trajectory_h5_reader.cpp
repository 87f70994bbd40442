#include "affix/io/trajectory_h5_reader.hpp"

#include <hdf5.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <system_error>
#include <utility>

#include "affix/error.hpp"
#include "affix/io/child_process_trial.hpp"
#include "affix/io/csv_reader.hpp"
#include "affix/io/number_format.hpp"
#include "affix/io/trajectory_h5_layout.hpp"

namespace affix {

namespace {

namespace fs = std::filesystem;
using namespace h5_layout;

using Dims = std::vector<hsize_t>;

/// "[5][2][3]", a shape for messages ("" for a scalar).
std::string shape_text(const Dims& dims) {
  std::string text;
  for (hsize_t n : dims) {
    text += '[';
    text += std::to_string(n);
    text += ']';
  }
  return text;
}

/// "got shape [5][2]" or "got a scalar".
std::string got_shape(const Dims& dims) { return dims.empty() ? "got a scalar" : "got shape " + shape_text(dims); }

/// The shape of `dataset`.
Dims shape_of(hid_t dataset, const fs::path& file, const char* name) {
  const h5::Handle space(h5::check<InputError>(H5Dget_space(dataset), file, std::string("cannot read /") + name),
                         H5Sclose);
  const int rank = h5::check<InputError>(H5Sget_simple_extent_ndims(space.get()), file,
                                         std::string("cannot read /") + name);
  Dims dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

/// Whether `dataset` holds values of `type_class` (H5T_FLOAT, H5T_STRING, …).
bool has_class(hid_t dataset, H5T_class_t type_class) {
  const h5::Handle type(H5Dget_type(dataset), H5Tclose);
  return type.get() >= 0 && H5Tget_class(type.get()) == type_class;
}

}  // namespace

void TrajectoryH5Reader::fail(std::string_view what) const { throw InputError(file_.string() + ": " + std::string(what)); }

TrajectoryH5Reader::TrajectoryH5Reader(const fs::path& file, const std::vector<std::string>& body_names)
    : file_(file) {
  // A directory, a FIFO or /dev/zero would read badly or forever, as for the CSV readers.
  std::error_code error;
  if (!fs::is_regular_file(file, error))
    fail("cannot read file (is this a run's output directory? `affix run --format hdf5` writes it)");
  h5::prepare();
  const hid_t opened = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (opened < 0) {
    const std::string reason = h5::last_error();
    // HDF5 locks a file while it is written: the run that writes it is still going.
    if (reason.starts_with("unable to lock file"))
      fail("cannot read it while it is being written (" + reason + "); wait for the run to finish");
    fail("not a readable HDF5 file (" + reason + ")");
  }
  h5_file_ = h5::Handle(opened, H5Fclose);
  check_format();
  const auto open = [&](const char* name) {
    const htri_t exists = H5Lexists(h5_file_.get(), name, H5P_DEFAULT);
    if (exists <= 0)
      fail(std::string("no dataset /") + name + " (an affix trajectory has /time, /body, /position and /rotation)");
    return h5::Handle(h5::check<InputError>(H5Dopen2(h5_file_.get(), name, H5P_DEFAULT), file,
                                            std::string("cannot open /") + name),
                      H5Dclose);
  };
  time_ = open(kTime);
  body_ = open(kBody);
  position_ = open(kPosition);
  rotation_ = open(kRotation);
  check_bodies(body_names);
  read_times();
}

void TrajectoryH5Reader::check_format() const {
  const hid_t root = h5_file_.get();
  if (H5Aexists(root, kVersionAttribute) <= 0)
    fail(std::string("no attribute ") + kVersionAttribute + " (expected a trajectory.h5 written by `affix run`)");
  const h5::Handle attribute(h5::check<InputError>(H5Aopen(root, kVersionAttribute, H5P_DEFAULT), file_,
                                                   std::string("cannot read ") + kVersionAttribute),
                             H5Aclose);
  const h5::Handle space(H5Aget_space(attribute.get()), H5Sclose);
  const h5::Handle type(H5Aget_type(attribute.get()), H5Tclose);
  int version = 0;
  if (H5Sget_simple_extent_npoints(space.get()) != 1 || H5Tget_class(type.get()) != H5T_INTEGER ||
      H5Aread(attribute.get(), H5T_NATIVE_INT, &version) < 0)
    fail(std::string(kVersionAttribute) + ": expected one whole number");
  if (version != kFormatVersion)
    fail(std::string(kVersionAttribute) + " " + std::to_string(version) + ": expected " +
         std::to_string(kFormatVersion) + " (this affix reads that version only)");
}

void TrajectoryH5Reader::check_bodies(const std::vector<std::string>& body_names) {
  const Dims body = shape_of(body_.get(), file_, kBody);
  if (body.size() != 1) fail("/body: expected one name per body, " + got_shape(body));
  if (body[0] != body_names.size())
    fail("/body: " + std::to_string(body[0]) + " bodies where meshes.json has " + std::to_string(body_names.size()));
  bodies_ = body_names.size();
  const hsize_t b = bodies_;
  const auto expect_shape = [&](hid_t dataset, const char* name, Dims tail) {
    const Dims dims = shape_of(dataset, file_, name);
    Dims expected{dims.empty() ? 0 : dims[0]};
    expected.insert(expected.end(), tail.begin(), tail.end());
    if (dims != expected)
      fail(std::string("/") + name + ": expected shape [frames]" + shape_text(tail) + ", " + got_shape(dims));
    if (!has_class(dataset, H5T_FLOAT)) fail(std::string("/") + name + ": expected floating-point numbers");
  };
  expect_shape(time_.get(), kTime, {});
  expect_shape(position_.get(), kPosition, {b, 3});
  expect_shape(rotation_.get(), kRotation, {b, 3, 3});

  const std::vector<std::string> names = read_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] != body_names[i])
      fail("/body: body " + quoted_field(names[i]) + " where meshes.json has " + quoted_field(body_names[i]) +
           " (body " + std::to_string(i + 1) + " of " + std::to_string(names.size()) + ")");
}

std::vector<std::string> TrajectoryH5Reader::read_names() const { return read_strings(body_.get(), kBody, bodies_); }

std::vector<std::string> TrajectoryH5Reader::read_strings(h5::Id dataset, const char* name, std::size_t count) const {
  // Fixed-length strings (trajectory_h5_writer.cpp says why), at most as many bytes as the file has.
  const std::string where = std::string("/") + name;
  const h5::Handle stored(h5::check<InputError>(H5Dget_type(dataset), file_, "cannot read " + where), H5Tclose);
  if (H5Tget_class(stored.get()) != H5T_STRING || H5Tis_variable_str(stored.get()) != 0)
    fail(where + ": expected fixed-length strings");
  const std::size_t size = H5Tget_size(stored.get());
  hsize_t file_size = 0;
  H5Fget_filesize(h5_file_.get(), &file_size);
  if (size == 0 || size > file_size / std::max<std::size_t>(count, 1))
    fail(where + ": strings of " + std::to_string(size) + " bytes each do not fit in the file");
  const h5::Handle type(H5Tcopy(stored.get()), H5Tclose);
  std::vector<char> text(count * size);
  h5::check<InputError>(H5Dread(dataset, type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()), file_,
                        "cannot read " + where);
  std::vector<std::string> names;
  names.reserve(count);
  for (std::size_t b = 0; b < count; ++b) {
    const char* begin = &text[b * size];
    names.emplace_back(begin, std::find(begin, begin + size, '\0'));  // null-padded
  }
  return names;
}

void TrajectoryH5Reader::read_times() {
  // A run killed while appending a frame may have grown some datasets and not the others.
  const hsize_t frames = std::min({shape_of(time_.get(), file_, kTime)[0], shape_of(position_.get(), file_, kPosition)[0],
                                   shape_of(rotation_.get(), file_, kRotation)[0]});
  if (frames > static_cast<hsize_t>(INT_MAX)) fail("more than " + std::to_string(INT_MAX) + " frames");
  if (frames == 0) fail("no complete frame");
  times_.resize(frames);
  const h5::Handle file_space(H5Dget_space(time_.get()), H5Sclose);
  const hsize_t start = 0;
  H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &frames, nullptr);
  const h5::Handle memory(H5Screate_simple(1, &frames, nullptr), H5Sclose);
  h5::check<InputError>(H5Dread(time_.get(), H5T_NATIVE_DOUBLE, memory.get(), file_space.get(), H5P_DEFAULT,
                                times_.data()),
                        file_, "cannot read /time");
  for (std::size_t f = 0; f < times_.size(); ++f) {
    if (!std::isfinite(times_[f]) || times_[f] < 0)
      fail("/time: frame " + std::to_string(f) + ": expected a finite time ≥ 0, got " + format_shortest(times_[f]));
    if (f > 0 && times_[f] < times_[f - 1])
      fail("/time: time goes back: frame " + std::to_string(f) + " is earlier than frame " + std::to_string(f - 1));
  }
}

std::vector<double> TrajectoryH5Reader::frame(int f) const {
  std::vector<double> values(bodies_ * 12);
  // Each dataset's slab of frame f lands straight in its columns of the 12 per body.
  const auto read = [&](hid_t dataset, const char* name, hsize_t column, Dims count) {
    const std::string what = "frame " + std::to_string(f) + ": cannot read /" + name;
    const h5::Handle file_space(h5::check<InputError>(H5Dget_space(dataset), file_, what), H5Sclose);
    Dims file_start(count.size(), 0);
    file_start[0] = static_cast<hsize_t>(f);
    h5::check<InputError>(
        H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, file_start.data(), nullptr, count.data(), nullptr),
        file_, what);
    const hsize_t memory_dims[2] = {bodies_, 12};
    const hsize_t memory_start[2] = {0, column};
    const hsize_t memory_count[2] = {bodies_, column == 0 ? 3u : 9u};
    const h5::Handle memory(h5::check<InputError>(H5Screate_simple(2, memory_dims, nullptr), file_, what), H5Sclose);
    h5::check<InputError>(
        H5Sselect_hyperslab(memory.get(), H5S_SELECT_SET, memory_start, nullptr, memory_count, nullptr), file_, what);
    h5::check<InputError>(
        H5Dread(dataset, H5T_NATIVE_DOUBLE, memory.get(), file_space.get(), H5P_DEFAULT, values.data()), file_, what);
  };
  read(position_.get(), kPosition, 0, {1, bodies_, 3});
  read(rotation_.get(), kRotation, 3, {1, bodies_, 3, 3});
  return values;
}

bool TrajectoryH5Reader::has_joints() const { return H5Lexists(h5_file_.get(), kJoint, H5P_DEFAULT) > 0; }

TrajectoryH5Reader::JointStart TrajectoryH5Reader::joints_at_start(std::size_t max_joints) const {
  const auto open = [&](const char* name) {
    if (H5Lexists(h5_file_.get(), name, H5P_DEFAULT) <= 0)
      fail(std::string("no dataset /") + name + " (a trajectory with /joint has every /joint… dataset)");
    return h5::Handle(h5::check<InputError>(H5Dopen2(h5_file_.get(), name, H5P_DEFAULT), file_,
                                            std::string("cannot open /") + name),
                      H5Dclose);
  };
  const h5::Handle joint = open(kJoint), body1 = open(kJointBody1), body2 = open(kJointBody2);
  const h5::Handle anchor1 = open(kJointAnchor1), anchor2 = open(kJointAnchor2);
  JointStart out;
  const Dims names = shape_of(joint.get(), file_, kJoint);
  if (names.size() != 1) fail(std::string("/") + kJoint + ": expected one name per joint, " + got_shape(names));
  out.total = names[0];
  for (const auto& [dataset, name] : {std::pair{body1.get(), kJointBody1}, std::pair{body2.get(), kJointBody2}})
    if (shape_of(dataset, file_, name) != names)
      fail(std::string("/") + name + ": expected shape " + shape_text(names) + ", " +
           got_shape(shape_of(dataset, file_, name)));
  const hsize_t kept = std::min<hsize_t>(out.total, max_joints);
  for (const auto& [dataset, name] : {std::pair{anchor1.get(), kJointAnchor1}, std::pair{anchor2.get(), kJointAnchor2}}) {
    const Dims dims = shape_of(dataset, file_, name);
    if (dims.size() != 3 || dims[0] < 1 || dims[1] != names[0] || dims[2] != 3 || !has_class(dataset, H5T_FLOAT))
      fail(std::string("/") + name + ": expected floating-point numbers of shape [frames][" +
           std::to_string(names[0]) + "][3], " + got_shape(dims));
  }
  out.joint = read_strings(joint.get(), kJoint, out.total);
  out.body1 = read_strings(body1.get(), kJointBody1, out.total);
  out.body2 = read_strings(body2.get(), kJointBody2, out.total);
  for (std::vector<std::string>* list : {&out.joint, &out.body1, &out.body2}) list->resize(kept);
  const auto read_start = [&](hid_t dataset, const char* name, std::vector<double>& values) {
    const std::string what = std::string("cannot read frame 0 of /") + name;
    values.resize(3 * kept);
    if (kept == 0) return;
    const h5::Handle space(h5::check<InputError>(H5Dget_space(dataset), file_, what), H5Sclose);
    const Dims start{0, 0, 0}, count{1, kept, 3};
    h5::check<InputError>(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
                          file_, what);
    const h5::Handle memory(h5::check<InputError>(H5Screate_simple(3, count.data(), nullptr), file_, what), H5Sclose);
    h5::check<InputError>(H5Dread(dataset, H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, values.data()),
                          file_, what);
  };
  read_start(anchor1.get(), kJointAnchor1, out.anchor1);
  read_start(anchor2.get(), kJointAnchor2, out.anchor2);
  return out;
}

void try_reading_in_child(const fs::path& file, const std::function<void()>& read) {
  try_in_child_process(read, file.string() + ": not a readable HDF5 file: damaged, libhdf5 crashed reading it");
}

}  // namespace affix
