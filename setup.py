"""Builds the Python module `affix` with the project's CMake (cmake/python.cmake) and installs it.

    pip install --no-build-isolation .

The module is compiled in build/pip/ (Release, no tests) for the interpreter that runs pip, which may be a
venv of the system Python; ccache keyed on paths relative to the checkout reuses `make build`'s objects.
AFFIX_CMAKE_ARGS adds CMake options (e.g. "-DAFFIX_ASSERTIONS=ON", which reuses `make test`'s objects).
"""
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
VERSION = re.search(r"project\(affix VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)


class CMakeExtension(Extension):
    """An extension that CMake builds: no sources for setuptools to compile."""

    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = ROOT / "build" / "pip"
        env = dict(os.environ, CCACHE_BASEDIR=str(ROOT), CCACHE_NOHASHDIR="1")
        for tool in ("cmake", "ninja"):
            if shutil.which(tool) is None:
                sys.exit(f"affix: building the Python module needs {tool} (run scripts/install-deps.sh)")
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build_dir), "-G", "Ninja", "-Wno-dev",
                        "-DCMAKE_BUILD_TYPE=Release", "-DAFFIX_BUILD_TESTS=OFF", "-DAFFIX_BUILD_PYTHON=ON",
                        f"-DPython_EXECUTABLE={sys.executable}", *shlex.split(os.environ.get("AFFIX_CMAKE_ARGS", ""))],
                       check=True, env=env)
        subprocess.run(["ninja", "-C", str(build_dir), f"-j{os.cpu_count() or 1}", "affix_python"], check=True, env=env)
        suffix = ".so" if os.name != "nt" else ".pyd"
        built = [p for p in (build_dir / "python").iterdir() if p.name.startswith("affix.") and p.name.endswith(suffix)]
        if len(built) != 1:
            sys.exit(f"affix: expected one module in {build_dir / 'python'}, found {[p.name for p in built]}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file(str(built[0]), str(target))


setup(
    name="affix",
    version=VERSION,
    description="Stiff and rigid multibody dynamics with joints and contact",
    ext_modules=[CMakeExtension("affix")],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
