#!/usr/bin/env bash
# The README's second command: set up, build, and run the whole test suite through
# ctest.  `scripts/test.sh -L unit` runs only the fast unit tests; any arguments are
# passed to ctest.
set -euo pipefail
UMBRA_BUILD_TARGETS= # the suite needs everything built
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
jobs=$(nproc 2>/dev/null || echo 2)
ctest --test-dir "$UMBRA_BUILD" --output-on-failure -j "$jobs" "$@"
