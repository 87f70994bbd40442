#!/usr/bin/env bash
# The one place affix's dependency list lives. Installs the Debian 12 packages that are missing;
# silent when everything is already present.
set -euo pipefail

packages=(
  g++ cmake ninja-build make ccache pkg-config
  libeigen3-dev          # dense algebra, fixed-size blocks
  libsuitesparse-dev     # CHOLMOD sparse Cholesky
  libopenblas0-serial libopenblas-serial-dev   # its BLAS: OpenBLAS, single-threaded (CMakeLists.txt links it)
  libtbb-dev             # parallel loops
  nlohmann-json3-dev     # scene files
  libcli11-dev           # command line
  libtinyobjloader-dev   # OBJ meshes
  libfcl-dev             # collision detection of the impulse solver (FCL, with libccd)
  libassimp-dev          # STL, DAE, PLY, OFF meshes (scene files and imported URDF/MJCF meshes)
  libgtest-dev libgmock-dev   # tests
  libbenchmark-dev       # bench/
  libosmesa6-dev libpng-dev ffmpeg   # affix render: offscreen OpenGL, PNG frames, GIF/MP4
  libhdf5-dev            # trajectory.h5, the binary trajectory of large runs (affix run --format hdf5)
  libmujoco-dev          # affix import: MJCF/URDF compiled by MuJoCo's own compiler (mj_loadXML)
  libmujoco-samples      # the MJCF models the import tests run (/usr/share/mujoco/model)
  libtinyxml2-dev        # affix import: URDF meshes MuJoCo cannot open, rewritten for its virtual file system
  chromium               # the viewer page's browser test (headless)
  pybind11-dev python3-dev python3-numpy   # the Python module (cmake/python.cmake), for /usr/bin/python3
  python3-pytest         # its tests (tests/python, run by ctest)
  python3-setuptools python3-venv python3-pip   # pip install --no-build-isolation . (setup.py)
  python3-matplotlib     # examples/python/drop_and_plot.py
)
# Node.js and npm build the viewer page's JavaScript bundle (three.js, pinned by viewer/package-lock.json).
# A machine may already have them from elsewhere; Debian's packages are used only when they are missing.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

if [ "${1:-}" = "--peers" ]; then
  packages=(
    libmujoco-dev   # MuJoCo 2.2.2 (double precision)
    libbullet-dev   # Bullet 3.24; bench/peers links its float64 (double-precision) build
    libode-dev      # ODE 0.16.2, built in double precision
  )
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
