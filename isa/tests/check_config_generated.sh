#!/bin/sh
# config_generated_fresh: regenerates the two tables of docs/configuration.md from
# isa/config_keys.yaml (umbra-configgen) and rtl/umbra_defaults.vh from the key -> RTL
# parameter table (umbra-config --verilog-defaults) into a temporary directory and
# fails if the committed copies differ, so that neither is hand-edited or stale.
#
# usage: check_config_generated.sh <umbra-configgen> <umbra-config> <source dir>
set -u
configgen=$1
config=$2
src=$3
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

if ! "$configgen" "$src/isa/config_keys.yaml" --uarch "$src/isa/uarch.yaml" \
    --markdown-from "$src/docs/configuration.md" --markdown "$tmp/configuration.md"; then
  echo "umbra-configgen rejected isa/config_keys.yaml" >&2
  exit 1
fi
if ! "$config" --verilog-defaults "$tmp/umbra_defaults.vh"; then
  echo "umbra-config --verilog-defaults failed" >&2
  exit 1
fi
status=0
for pair in "docs/configuration.md configuration.md" "rtl/umbra_defaults.vh umbra_defaults.vh"; do
  set -- $pair
  if ! diff -u "$src/$1" "$tmp/$2" >"$tmp/diff" 2>&1; then
    echo "$1 is not what isa/config_keys.yaml generates (- committed, + generated):" >&2
    cat "$tmp/diff" >&2
    status=1
  fi
done
if [ $status -ne 0 ]; then
  echo "" >&2
  echo "Refresh the committed files with:  cmake --build build --target isa-docs" >&2
fi
exit $status
