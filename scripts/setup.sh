#!/usr/bin/env bash
# Sets up a Debian 12 machine for Umbra and builds it: installs the Debian packages
# the whole toolchain needs (only those missing, so a second run is quick), then
# configures and builds with CMake (everything, or only UMBRA_BUILD_TARGETS).  Sourced
# by scripts/demo.sh and scripts/test.sh, so both quick-start commands work on a fresh
# machine, and by fpga/build.sh with UMBRA_SETUP_PACKAGES_ONLY=1 (the packages, not
# the build).
set -euo pipefail

UMBRA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UMBRA_BUILD=${UMBRA_BUILD:-$UMBRA_ROOT/build}

UMBRA_PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libsystemc-dev verilator
  libyaml-cpp-dev googletest libgmock-dev libgtest-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libpng-dev
  yosys nextpnr-ice40 fpga-icestorm iverilog gtkwave
  clang libclang-rt-14-dev binutils python3
  gnuplot-nox
)

umbra_install_packages() {
  local missing=()
  for p in "${UMBRA_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
}

umbra_build() {
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  # Configured every time (quick once cached): ninja's own re-run of the configure step
  # can first rebuild a generator with a tree's stale flags after a CMakeLists change.
  # An existing tree keeps its generator and cache (a user's own options stay).
  if [ -f "$UMBRA_BUILD/CMakeCache.txt" ]; then
    cmake -S "$UMBRA_ROOT" -B "$UMBRA_BUILD" >/dev/null
  else
    cmake -S "$UMBRA_ROOT" -B "$UMBRA_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
  fi
  # UMBRA_BUILD_TARGETS (space-separated) builds only those targets and what they need:
  # the demo builds the one tool it runs, the suite's command everything.
  local targets=()
  [ -z "${UMBRA_BUILD_TARGETS:-}" ] || read -r -a targets <<<"--target $UMBRA_BUILD_TARGETS"
  cmake --build "$UMBRA_BUILD" -j "$jobs" "${targets[@]}"
}

umbra_install_packages
# fpga/build.sh needs the tools, not the build.
[ "${UMBRA_SETUP_PACKAGES_ONLY:-0}" = 1 ] || umbra_build
