#include "affix/python/arrays.hpp"

#include "affix/error.hpp"

namespace py = pybind11;

namespace affix::python {
namespace {

std::string shape_text(const std::vector<py::ssize_t>& shape) {
  std::string text = "(";
  for (std::size_t k = 0; k < shape.size(); ++k)
    text += (k ? ", " : "") + (shape[k] < 0 ? std::string("n") : std::to_string(shape[k]));
  return text + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

Array read_only(Array array) {
  array.attr("setflags")(py::arg("write") = false);
  return array;
}

Array new_array(const std::vector<py::ssize_t>& shape) {
  Array a(shape);
  std::fill(a.mutable_data(), a.mutable_data() + a.size(), 0.0);
  return a;
}

Array to_array(const Vec3& v) {
  Array a = new_array({3});
  for (int k = 0; k < 3; ++k) a.mutable_data()[k] = v[k];
  return read_only(a);
}

Array to_array(const Mat3& m) {
  Array a = new_array({3, 3});
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) a.mutable_data()[3 * r + c] = m(r, c);
  return read_only(a);
}

Array as_array(const py::handle& value, const std::vector<py::ssize_t>& shape, const std::string& what) {
  Array a = Array::ensure(value);  // null when numpy cannot make float64 of it (the error is cleared)
  if (!a) {
    throw InputError(what + ": expected an array of shape " + shape_text(shape) + ", got a " +
                     std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  }
  bool fits = a.ndim() == static_cast<py::ssize_t>(shape.size());
  for (std::size_t k = 0; fits && k < shape.size(); ++k) fits = shape[k] < 0 || a.shape(k) == shape[k];
  if (!fits) {
    std::vector<py::ssize_t> given(a.shape(), a.shape() + a.ndim());
    throw InputError(what + ": expected an array of shape " + shape_text(shape) + ", got " + shape_text(given));
  }
  return a;
}

double as_number(const py::handle& value, const std::string& what) {
  // A bool is an int to Python and to numpy, and float() reads a str of digits: neither is a speed or a
  // set point a caller meant. (pybind11's own `double` argument raised TypeError for a str.)
  const auto name = [&] { return std::string(py::str(py::type::handle_of(value).attr("__name__"))); };
  const bool refused = py::isinstance<py::bool_>(value) || py::isinstance<py::str>(value) ||
                       py::isinstance<py::bytes>(value) || name() == "bool_" || value.is_none();
  if (!refused)
    if (const Array a = Array::ensure(value)) {
      if (a.ndim() == 0) return *a.data();
      throw InputError(what + ": expected a number, got an array of " + std::to_string(a.size()) + " values");
    }
  throw InputError(what + ": expected a number, got a " + name());
}

Vec3 as_vec3(const py::handle& value, const std::string& what) {
  const Array a = as_array(value, {3}, what);
  return Vec3(a.data()[0], a.data()[1], a.data()[2]);
}

Mat3 as_mat3(const py::handle& value, const std::string& what) {
  const Array a = as_array(value, {3, 3}, what);
  Mat3 m;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) m(r, c) = a.data()[3 * r + c];
  return m;
}

}  // namespace affix::python
