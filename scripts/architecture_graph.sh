#!/usr/bin/env bash
# Regenerates docs/architecture.svg, the layer picture of docs/architecture.md, from the
# build itself: `cmake --graphviz` over a scratch configuration of this tree, filtered to
# the project's own libraries and tools (no tests, no external packages, one
# cosimulation variant: the default configuration's), laid out bottom to top by Graphviz `dot`.  Also run by the
# `architecture_svg` build target.
# It also writes docs/architecture.edges, the picture's links as sorted text: --check
# compares the build's links with that file instead of writing anything (the
# architecture_fresh test; no Graphviz needed), so the picture cannot drift unseen.
#   scripts/architecture_graph.sh [--check] [SCRATCH_BUILD_DIR]      (default: a temporary one)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = --check ]; then
  check=1
  shift
fi
scratch=${1:-$(mktemp -d)}
[ $check = 1 ] || command -v dot >/dev/null ||
  { echo "architecture_graph: Graphviz 'dot' is not installed (apt-get install graphviz)" >&2; exit 1; }
mkdir -p "$scratch"
# cmake reads the filter from the build directory.
cat >"$scratch/CMakeGraphVizOptions.cmake" <<'OPTS'
set(GRAPHVIZ_GRAPH_NAME "umbra")
set(GRAPHVIZ_EXTERNAL_LIBS FALSE)
set(GRAPHVIZ_INTERFACE_LIBS TRUE)
set(GRAPHVIZ_GENERATE_PER_TARGET FALSE)
set(GRAPHVIZ_GENERATE_DEPENDERS FALSE)
set(GRAPHVIZ_IGNORE_TARGETS ".*_test$" ".*_test_.*" "^fuzz" ".*-ice40-up5k$" "^core_bench" "^fpu_bench"
    "^reorder_queue_cosim" "^umbra_directed" "^umbra-directed" "^umbra_memory_directed" "^fpga" "^umbra-config"
    "^umbra_fpga" "^umbra-as$" "^umbra-objdump$" "^umbra-gen" "^access_patterns$" "^latency_hiding$" "^issue_rate$"
    "^queue_bench$" "^clock_bench$" "^kernels_bench$" "^umbra-dis$" "^umbra-load$" "^umbra_board$" "^umbra-isagen$" "^random_iss$"
    "-test-" "-ice40-" "-ecp5-" "-mutant$" "^directed_cosim" "^umbra-cmdgen$" "-line-port$" "^umbra_verilated_runtime$"
    "_objects$")
OPTS
# UMBRA_CONFIG_TOOL: an umbra-config already built (the ctest passes its build's), so
# the scratch configure need not build its own.
cmake -S "$src" -B "$scratch" -G Ninja -DUMBRA_TARGET_GRAPH_ONLY=ON \
  ${UMBRA_CONFIG_TOOL:+-DUMBRA_PREBUILT_CONFIG_TOOL="$UMBRA_CONFIG_TOOL"} --graphviz="$scratch/umbra.dot" >/dev/null
# Top to bottom: what is used sits below what uses it; without cmake's legend.
python3 - "$scratch/umbra.dot" "$scratch/umbra-bt.dot" <<'PY'
import re, sys
dot = open(sys.argv[1]).read()
dot = re.sub(r'subgraph clusterLegend \{.*?\n\}\n', '', dot, flags=re.S)
dot = dot.replace('digraph "umbra" {', 'digraph "umbra" {\n  node [fontname = "Helvetica", fontsize = 11];', 1)
open(sys.argv[2], 'w').write(dot)
PY
# The links as text: "user -> used", by target name, sorted.
python3 - "$scratch/umbra.dot" "$scratch/architecture.edges" <<'PY'
import re, sys
dot = open(sys.argv[1]).read()
dot = re.sub(r'subgraph clusterLegend \{.*?\n\}\n', '', dot, flags=re.S)
names = dict(re.findall(r'"(node\d+)" \[ label = "([^"]+)"', dot))
edges = sorted({f"{names[a]} -> {names[b]}" for a, b in re.findall(r'"(node\d+)" -> "(node\d+)"', dot)})
open(sys.argv[2], "w").write("".join(e + "\n" for e in edges))
PY
if [ $check = 1 ]; then
  if ! diff -u "$src/docs/architecture.edges" "$scratch/architecture.edges"; then
    echo "architecture_graph: docs/architecture.svg is stale: the build's links differ from" \
      "docs/architecture.edges (above: - committed, + the build); run scripts/architecture_graph.sh" >&2
    exit 1
  fi
  echo "architecture_graph: docs/architecture.edges matches the build ($(wc -l <"$scratch/architecture.edges") links)"
  exit 0
fi
cp "$scratch/architecture.edges" "$src/docs/architecture.edges"
dot -Tsvg "$scratch/umbra-bt.dot" -o "$src/docs/architecture.svg"
echo "architecture_graph: wrote $src/docs/architecture.svg and docs/architecture.edges"
