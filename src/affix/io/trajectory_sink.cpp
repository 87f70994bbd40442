#include "affix/io/trajectory_sink.hpp"

#include "affix/io/trajectory_h5_writer.hpp"
#include "affix/io/trajectory_writer.hpp"

namespace affix {

std::unique_ptr<TrajectorySink> open_trajectory(const std::filesystem::path& out_dir, TrajectoryFormat format,
                                                const std::vector<std::string>& body_names) {
  const std::filesystem::path file = out_dir / trajectory_file_name(format);
  if (format == TrajectoryFormat::hdf5) return std::make_unique<TrajectoryH5Writer>(file, body_names);
  return std::make_unique<TrajectoryWriter>(file, body_names);
}

}  // namespace affix
