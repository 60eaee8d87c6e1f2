// Generated from isa/uarch.yaml by umbra-isagen. Do not edit.
// The core's codes and numbers for the RTL (the C++ copy is umbra/uarch_gen.h).
`ifndef UMBRA_UARCH_VH
`define UMBRA_UARCH_VH

// Stages: an instruction fetched in cycle n is in stage k in cycle n + k.
`define UMBRA_FETCH_TO_X1 3
// Execute stages L = X1 -> W = the FPU's add/multiply latency (umbra_core's
// EXEC_STAGES, a configuration's core.execute_stages); the depth is
// UMBRA_FETCH_TO_X1 + L + 1 and THREADS must be at least that.
`define UMBRA_MIN_EXECUTE_STAGES 4
`define UMBRA_MAX_EXECUTE_STAGES 16
`define UMBRA_DEFAULT_EXECUTE_STAGES 4
// The FPU's short functions and the integer multiply take MISC_LATENCY cycles
// from X1 (RTL-internal: nothing sees a result before W): 2 from the first L on,
// 3 (the FPU's input register) from the second, 4 (fp_misc in three stages) from
// the third.
`define UMBRA_MISC_LATENCY_2_FROM 6
`define UMBRA_MISC_LATENCY_3_FROM 8
`define UMBRA_MISC_LATENCY_4_FROM 10
`define UMBRA_MISC_LATENCY(l) (((l) >= `UMBRA_MISC_LATENCY_4_FROM) ? 4 : ((l) >= `UMBRA_MISC_LATENCY_3_FROM) ? 3 : ((l) >= `UMBRA_MISC_LATENCY_2_FROM) ? 2 : 1)

// Limits of the parameters (the fewest threads: the shallowest pipeline's depth)
`define UMBRA_MIN_THREADS 8
`define UMBRA_MAX_THREADS 256
`define UMBRA_MIN_REGISTERS 2
`define UMBRA_MAX_REGISTERS 256
`define UMBRA_MAX_IMEM_WORDS 4194304
`define UMBRA_MAX_CORES 64

// thread_state: a thread's state in fetch, and the new state execute sends it on x2_upd_state
`define UMBRA_THREAD_STATE_BITS 2
`define UMBRA_THREAD_STATE_IDLE 2'd0
`define UMBRA_THREAD_STATE_RUN 2'd1
`define UMBRA_THREAD_STATE_SLEEP 2'd2
`define UMBRA_THREAD_STATE_EXITED 2'd3

// bubble_reason: why a fetch slot issued a bubble (d_reason, trace_issue_reason, bubble events)
`define UMBRA_BUBBLE_REASON_BITS 2
`define UMBRA_BUBBLE_REASON_IDLE 2'd0
`define UMBRA_BUBBLE_REASON_MEMORY 2'd1
`define UMBRA_BUBBLE_REASON_EXITED 2'd2

// fault: why a thread stopped other than by exit (trace_fault_cause; umbra::Fault)
`define UMBRA_FAULT_BITS 3
`define UMBRA_FAULT_NONE 3'd0
`define UMBRA_FAULT_ILLEGAL_INSTRUCTION 3'd1
`define UMBRA_FAULT_MISALIGNED 3'd2
`define UMBRA_FAULT_OUT_OF_RANGE 3'd3
`define UMBRA_FAULT_BAD_JUMP 3'd4
`define UMBRA_FAULT_INSTRUCTION_LIMIT 3'd5

// cache_outcome: what the data cache did with a request in C2 (trace_cache_outcome, cache events)
`define UMBRA_CACHE_OUTCOME_BITS 2
`define UMBRA_CACHE_OUTCOME_NONE 2'd0
`define UMBRA_CACHE_OUTCOME_HIT 2'd1
`define UMBRA_CACHE_OUTCOME_MISS 2'd2
`define UMBRA_CACHE_OUTCOME_MERGE 2'd3

`endif
