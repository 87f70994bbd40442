#include "affix/io/contacts_writer.hpp"

#include <cassert>

#include "affix/io/number_format.hpp"

namespace affix {

ContactsWriter::ContactsWriter(const std::filesystem::path& path, const std::vector<std::string>& body_names)
    : file_(path, kHeader) {
  body_fields_.reserve(body_names.size());
  for (const std::string& name : body_names) body_fields_.push_back(csv_field(name));
}

void ContactsWriter::write_frame(int frame, double time, const std::vector<ContactRecord>& records) {
  [[maybe_unused]] const int bodies = static_cast<int>(body_fields_.size());
  std::string rows;
  for (const ContactRecord& r : records) {
    assert(r.body1 >= 0 && r.body1 < bodies && r.body2 >= -1 && r.body2 < bodies);
    rows += std::to_string(frame);
    rows += ',';
    append_number(rows, time);
    rows += ',';
    rows += body_fields_[r.body1];
    rows += ',';
    rows += r.body2 < 0 ? std::string("ground") : body_fields_[r.body2];
    for (const Vec3* v : {&r.point, &r.normal}) {
      for (int i = 0; i < 3; ++i) {
        rows += ',';
        append_number(rows, (*v)(i));
      }
    }
    rows += ',';
    append_number(rows, r.distance);
    rows += ',';
    append_number(rows, r.force);
    rows += '\n';
  }
  file_.write(rows);
}

}  // namespace affix
