#!/usr/bin/env bash
# check_report.sh: the ctest of the characterization report (label bench).  Runs
# bench/report.sh on the small budget into a temporary directory and checks that every
# figure the script promises (its FIGURES list, printed by --list-figures) was written:
# NAME.svg an SVG document, NAME.csv a header and at least one row of data; and that
# characterization.md shows every figure and the simulators' before/after table.  Any
# of them missing fails the test.
#
#   bench/check_report.sh BUILD_DIR
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -eq 1 ] || {
  echo "usage: bench/check_report.sh BUILD_DIR" >&2
  exit 1
}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# The build's own sim_speed as the baseline: the before/after table's path, not a figure.
"$ROOT/bench/report.sh" --budget small --no-build --build "$1" --out "$OUT" --speed-baseline "$1/bench/sim_speed"

mapfile -t figures < <("$ROOT/bench/report.sh" --list-figures)
[ ${#figures[@]} -gt 0 ] || {
  echo "check_report: report.sh --list-figures printed no figures" >&2
  exit 1
}
bad=0
for f in "${figures[@]}"; do
  svg=$OUT/characterization/$f.svg csv=$OUT/characterization/$f.csv
  if ! [ -s "$svg" ] || ! grep -q "<svg" "$svg" || ! grep -q "</svg>" "$svg"; then
    echo "check_report: $f.svg is missing or not an SVG document" >&2
    bad=1
  fi
  if ! [ -s "$csv" ] || [ "$(grep -c . "$csv")" -lt 2 ] || ! head -1 "$csv" | grep -q ","; then
    echo "check_report: $f.csv is missing or has no data rows" >&2
    bad=1
  fi
  grep -q "characterization/$f.svg" "$OUT/characterization.md" || {
    echo "check_report: characterization.md does not show $f.svg" >&2
    bad=1
  }
done
grep -q "new/old" "$OUT/characterization.md" || {
  echo "check_report: characterization.md has no before/after table of the simulators' speed" >&2
  bad=1
}
[ $bad = 0 ] || exit 1
echo "check_report: all ${#figures[@]} figures written: ${figures[*]}"
