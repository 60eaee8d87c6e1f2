#!/bin/sh
# isa_generated_fresh: regenerates rtl/umbra_isa.vh, rtl/umbra_isa_decode.vh,
# rtl/umbra_uarch.vh and docs/isa.md from isa/isa.yaml and isa/uarch.yaml (and the
# groups of configs/*.yaml, which docs/isa.md tabulates) into a
# temporary directory and fails if the committed copies differ.  Those files are
# committed so that RTL flows and readers need no build; this check is
# what keeps them provably generated rather than hand-edited or stale.
#
# usage: check_generated.sh <path to umbra-isagen> <source dir>
set -u
isagen=$1
src=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

if ! "$isagen" "$src/isa/isa.yaml" --verilog "$tmp/umbra_isa.vh" --verilog-decode "$tmp/umbra_isa_decode.vh" \
    --markdown "$tmp/isa.md" --configs "$src/configs" --uarch "$src/isa/uarch.yaml" --uarch-verilog "$tmp/umbra_uarch.vh"; then
  echo "umbra-isagen rejected isa/isa.yaml or isa/uarch.yaml" >&2
  exit 1
fi

status=0
for pair in "rtl/umbra_isa.vh umbra_isa.vh" "rtl/umbra_isa_decode.vh umbra_isa_decode.vh" \
    "rtl/umbra_uarch.vh umbra_uarch.vh" "docs/isa.md isa.md"; do
  set -- $pair
  if ! diff -u "$src/$1" "$tmp/$2" >"$tmp/diff" 2>&1; then
    echo "$1 is not what isa/isa.yaml and isa/uarch.yaml generate (- committed, + generated):" >&2
    cat "$tmp/diff" >&2
    status=1
  fi
done
if [ $status -ne 0 ]; then
  echo "" >&2
  echo "Refresh the committed files with:  cmake --build build --target isa-docs" >&2
fi
exit $status
