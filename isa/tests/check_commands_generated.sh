#!/bin/sh
# commands_generated_fresh: regenerates rtl/umbra_commands.vh, rtl/umbra_commands_attr.vh
# and docs/commands.md from isa/commands.yaml into a temporary directory and fails if
# the committed copies differ (as isa_generated_fresh does for the ISA).
#
# usage: check_commands_generated.sh <path to umbra-cmdgen> <source dir>
set -u
cmdgen=$1
src=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

if ! "$cmdgen" "$src/isa/commands.yaml" --verilog "$tmp/umbra_commands.vh" \
    --verilog-attr "$tmp/umbra_commands_attr.vh" --markdown "$tmp/commands.md"; then
  echo "umbra-cmdgen rejected isa/commands.yaml" >&2
  exit 1
fi
status=0
for pair in "rtl/umbra_commands.vh umbra_commands.vh" "rtl/umbra_commands_attr.vh umbra_commands_attr.vh" \
    "docs/commands.md commands.md"; do
  set -- $pair
  if ! diff -u "$src/$1" "$tmp/$2" >"$tmp/diff" 2>&1; then
    echo "$1 is not what isa/commands.yaml generates (- committed, + generated):" >&2
    cat "$tmp/diff" >&2
    status=1
  fi
done
[ $status -eq 0 ] || echo "Refresh the committed files with:  cmake --build build --target isa-docs" >&2
exit $status
