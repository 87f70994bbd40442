# The Python module `affix` (src/affix/python/, pybind11) and its pytest suite (tests/python/).
#
# Which interpreter: Debian's python3-numpy, python3-pytest and pybind11-dev are for /usr/bin/python3,
# while a developer's PATH may find another python3 first (pyenv, conda) that has none of them and a
# different ABI. So /usr/bin/python3 is taken when it exists, unless Python_EXECUTABLE is given (as
# setup.py does with the interpreter that runs pip, which may be a venv of the system one).
if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module)
# Found before pybind11, FindPython's result is the one pybind11 builds for (pybind11NewTools).
find_package(pybind11 2.6 CONFIG REQUIRED)

file(GLOB AFFIX_PYTHON_SOURCES CONFIGURE_DEPENDS src/affix/python/*.cpp)
# NO_EXTRAS: no link-time optimisation (the static libraries are not built for it; it only slows the link).
pybind11_add_module(affix_python MODULE NO_EXTRAS ${AFFIX_PYTHON_SOURCES})
target_link_libraries(affix_python PRIVATE affix_app affix_import)
# `import affix` with PYTHONPATH=<build>/python; setup.py copies the file from there into the wheel.
set_target_properties(affix_python PROPERTIES OUTPUT_NAME affix LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/python)
target_compile_definitions(affix_python PRIVATE AFFIX_VERSION="${PROJECT_VERSION}")

if(AFFIX_BUILD_TESTS)
  # One ctest per pytest file, so that `ctest -j` runs them side by side; each imports the module just
  # built, never an installed one.
  file(GLOB AFFIX_PYTEST_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/python/test_*.py)
  foreach(test_file ${AFFIX_PYTEST_FILES})
    get_filename_component(test_name ${test_file} NAME_WE)
    add_test(NAME python_${test_name}
             COMMAND ${Python_EXECUTABLE} -m pytest -q -p no:cacheprovider ${test_file}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/tests/python)
    set_tests_properties(python_${test_name} PROPERTIES LABELS python
      ENVIRONMENT "PYTHONPATH=${CMAKE_BINARY_DIR}/python;PYTHONDONTWRITEBYTECODE=1;AFFIX_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
  endforeach()
endif()
