#!/usr/bin/env bash
# check_report.sh: the ctest of the characterization report (label bench).  Runs
# bench/report.sh on the small budget into a temporary directory and checks that every
# figure the script promises (its FIGURES list, printed by --list-figures) was written:
# NAME.svg an SVG document, NAME.csv a header and at least one row of data; and that
# characterization.md shows every figure and the simulators' before/after table.  Any
# of them missing fails the test.
#
# Then it holds the committed report to the models: the small budget runs a subset of
# the full budget's points with the same parameters, so bench/compare_report.py
# requires every row it wrote to equal the committed row of the same key in
# docs/characterization/*.csv (and timeline.svg to equal the committed one).  A change
# that moves a cycle-count figure fails here, naming the figure, the row, the column
# and both values, until the report is regenerated with bench/report.sh and committed.
# COMMITTED_DIR replaces docs/characterization (to try the check on a planted copy).
#
# Seen to fail (the models of 15d89ec): with configs/fixed-memory.yaml's latency
# planted at 13 (the timeline's machine) it said
#   timeline.csv: row thread=3: memory_bubbles committed 2, now 3
#   timeline.svg: differs from the committed figure (its cycles or its drawing moved)
#   compare_report: 1 figure(s) differ: timeline
# and passed once `bench/report.sh --budget full` had regenerated docs/ under the plant
# (both then reverted); on a copy of docs/characterization with one value edited it
# said "access_patterns.csv: row model=dram queue_mode=reorder pattern=one address
# stride=0 op=load active=2 T=8: core_cycles committed 6.0625, now 6.0703125".
#
#   bench/check_report.sh BUILD_DIR [COMMITTED_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -eq 1 ] || [ $# -eq 2 ] || {
  echo "usage: bench/check_report.sh BUILD_DIR [COMMITTED_DIR]" >&2
  exit 1
}
COMMITTED=${2:-$ROOT/docs/characterization}
[ -d "$COMMITTED" ] || {
  echo "check_report: $COMMITTED is not a directory" >&2
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
python3 "$ROOT/bench/compare_report.py" "$OUT/characterization" "$COMMITTED"
