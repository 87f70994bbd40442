#pragma once
// numpy arrays in and out of the module. Out: fresh float64 arrays marked read-only, since the state
// they copy lives inside the solver in its own layout (a write would change nothing, so it raises).
// In: anything numpy can turn into float64 of the expected shape; another shape is an InputError that
// names the argument, the shape expected and the shape given.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "affix/math/types.hpp"

namespace affix::python {

using Array = pybind11::array_t<double, pybind11::array::c_style | pybind11::array::forcecast>;

/// A new read-only float64 array of the given shape, zero-filled; write through mutable_data() first.
Array read_only(Array array);
Array new_array(const std::vector<pybind11::ssize_t>& shape);

Array to_array(const Vec3& v);
Array to_array(const Mat3& m);

/// `value` as float64 with exactly `shape`; throws InputError "<what>: expected an array of shape
/// (3,), got (2,)" otherwise (or "… got a str" when numpy cannot read it as numbers).
Array as_array(const pybind11::handle& value, const std::vector<pybind11::ssize_t>& shape, const std::string& what);

/// A real number: a Python int or float, a numpy scalar or a 0-d array (a bool is not one); throws
/// InputError "<what>: expected a number, got a str" otherwise. Range checks are the caller's.
double as_number(const pybind11::handle& value, const std::string& what);

Vec3 as_vec3(const pybind11::handle& value, const std::string& what);
Mat3 as_mat3(const pybind11::handle& value, const std::string& what);

}  // namespace affix::python
