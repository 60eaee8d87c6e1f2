// Generated from isa/config_keys.yaml (the key -> RTL parameter table) by
// umbra-config --verilog-defaults.  Do not edit: `cmake --build build --target isa-docs`.
// UMBRA_DEFAULT_<P>: parameter P's value for the default machine (configs/default.yaml).
// UMBRA_CORE_PARAMS: umbra_core's parameters from the configuration, declared with those
// defaults by every module that holds a core; UMBRA_CORE_PASS passes them on by name.
// UMBRA_<LIST>_PARAMS and _PASS: the same for the rows of a list (`list` in the YAML).
`ifndef UMBRA_DEFAULTS_VH
`define UMBRA_DEFAULTS_VH

`define UMBRA_DEFAULT_CORES 1
`define UMBRA_DEFAULT_THREADS 8
`define UMBRA_DEFAULT_EXEC_STAGES 4
`define UMBRA_DEFAULT_REGS 256
`define UMBRA_DEFAULT_GROUPS 31
`define UMBRA_DEFAULT_IMEM_WORDS 4096
`define UMBRA_DEFAULT_MEM_WORDS 262144
`define UMBRA_DEFAULT_MEM_LATENCY 12
`define UMBRA_DEFAULT_CACHE_BYTES 4096
`define UMBRA_DEFAULT_CACHE_WAYS 2
`define UMBRA_DEFAULT_CACHE_LINE_BYTES 32
`define UMBRA_DEFAULT_REQ_QUEUE 8
`define UMBRA_DEFAULT_LINE_PORT 0
`define UMBRA_DEFAULT_MUL_ROWS 0
`define UMBRA_DEFAULT_FF_RAMS 0
`define UMBRA_DEFAULT_RAM_OUT_REG 0
`define UMBRA_DEFAULT_RESP_REGISTER 0
`define UMBRA_DEFAULT_REQ_REGISTER 0
`define UMBRA_DEFAULT_REGISTERED_START 0
`define UMBRA_DEFAULT_MODE_REORDER 1
`define UMBRA_DEFAULT_QUEUE_DEPTH 16
`define UMBRA_DEFAULT_DEPTH 16
`define UMBRA_DEFAULT_OPEN_ROWS 4
`define UMBRA_DEFAULT_MAX_PASSES 16
`define UMBRA_DEFAULT_REGISTERED_PICK 0
`define UMBRA_DEFAULT_REGISTERED_ACCEPT 0
`define UMBRA_DEFAULT_BANKS 8
`define UMBRA_DEFAULT_ROW_BYTES 2048
`define UMBRA_DEFAULT_LINE_BYTES 32
`define UMBRA_DEFAULT_CLK_HZ 25000000
`define UMBRA_DEFAULT_PLL_CLKI_DIV 1
`define UMBRA_DEFAULT_PLL_CLKFB_DIV 1
`define UMBRA_DEFAULT_PLL_CLKOP_DIV 24
`define UMBRA_DEFAULT_CL 2
`define UMBRA_DEFAULT_T_RCD 2
`define UMBRA_DEFAULT_T_RP 2
`define UMBRA_DEFAULT_T_RAS 5
`define UMBRA_DEFAULT_T_RC 6
`define UMBRA_DEFAULT_T_RRD 2
`define UMBRA_DEFAULT_T_WR 2
`define UMBRA_DEFAULT_T_RFC 6
`define UMBRA_DEFAULT_T_MRD 2
`define UMBRA_DEFAULT_T_REFI 781
`define UMBRA_DEFAULT_INIT_WAIT 10000
`define UMBRA_DEFAULT_COL_BITS 10
`define UMBRA_DEFAULT_BANK_BITS 3

`define UMBRA_CORE_PARAMS \
    parameter integer THREADS = `UMBRA_DEFAULT_THREADS, \
    parameter integer EXEC_STAGES = `UMBRA_DEFAULT_EXEC_STAGES, \
    parameter integer REGS = `UMBRA_DEFAULT_REGS, \
    parameter integer GROUPS = `UMBRA_DEFAULT_GROUPS, \
    parameter integer IMEM_WORDS = `UMBRA_DEFAULT_IMEM_WORDS, \
    parameter integer CACHE_BYTES = `UMBRA_DEFAULT_CACHE_BYTES, \
    parameter integer CACHE_WAYS = `UMBRA_DEFAULT_CACHE_WAYS, \
    parameter integer CACHE_LINE_BYTES = `UMBRA_DEFAULT_CACHE_LINE_BYTES, \
    parameter integer REQ_QUEUE = `UMBRA_DEFAULT_REQ_QUEUE, \
    parameter integer LINE_PORT = `UMBRA_DEFAULT_LINE_PORT, \
    parameter integer MUL_ROWS = `UMBRA_DEFAULT_MUL_ROWS, \
    parameter integer FF_RAMS = `UMBRA_DEFAULT_FF_RAMS, \
    parameter integer RAM_OUT_REG = `UMBRA_DEFAULT_RAM_OUT_REG

`define UMBRA_CORE_PASS \
    .THREADS(THREADS), \
    .EXEC_STAGES(EXEC_STAGES), \
    .REGS(REGS), \
    .GROUPS(GROUPS), \
    .IMEM_WORDS(IMEM_WORDS), \
    .CACHE_BYTES(CACHE_BYTES), \
    .CACHE_WAYS(CACHE_WAYS), \
    .CACHE_LINE_BYTES(CACHE_LINE_BYTES), \
    .REQ_QUEUE(REQ_QUEUE), \
    .LINE_PORT(LINE_PORT), \
    .MUL_ROWS(MUL_ROWS), \
    .FF_RAMS(FF_RAMS), \
    .RAM_OUT_REG(RAM_OUT_REG)

`define UMBRA_SDRAM_CLOCKS_PARAMS \
    parameter integer CL = `UMBRA_DEFAULT_CL, \
    parameter integer T_RCD = `UMBRA_DEFAULT_T_RCD, \
    parameter integer T_RP = `UMBRA_DEFAULT_T_RP, \
    parameter integer T_RAS = `UMBRA_DEFAULT_T_RAS, \
    parameter integer T_RC = `UMBRA_DEFAULT_T_RC, \
    parameter integer T_RRD = `UMBRA_DEFAULT_T_RRD, \
    parameter integer T_WR = `UMBRA_DEFAULT_T_WR, \
    parameter integer T_RFC = `UMBRA_DEFAULT_T_RFC, \
    parameter integer T_MRD = `UMBRA_DEFAULT_T_MRD, \
    parameter integer T_REFI = `UMBRA_DEFAULT_T_REFI, \
    parameter integer INIT_WAIT = `UMBRA_DEFAULT_INIT_WAIT

`define UMBRA_SDRAM_CLOCKS_PASS \
    .CL(CL), \
    .T_RCD(T_RCD), \
    .T_RP(T_RP), \
    .T_RAS(T_RAS), \
    .T_RC(T_RC), \
    .T_RRD(T_RRD), \
    .T_WR(T_WR), \
    .T_RFC(T_RFC), \
    .T_MRD(T_MRD), \
    .T_REFI(T_REFI), \
    .INIT_WAIT(INIT_WAIT)

`endif
