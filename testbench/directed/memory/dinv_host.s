# dinv_host.s -- dinv makes a write by the host visible.  NEEDS THE HOST-WRITE HOOK.
#
# Thread 0 loads x (a miss: the line is filled), then re-reads x SPIN times: every one
# hits the cached line, whatever memory holds by then.  The testbench writes 0xcafe0002
# into x directly in memory at cycle 3000 after launch (`#@ host-write`), long after the
# fill and long before the spin ends (about 3 * 8 * SPIN cycles).  The cache does not
# snoop, so the last spin read still sees the old 1.  Then `dinv x` and a load: a miss
# that fetches the host's value.  The other threads exit at once.
#
# Expected: seen = 1 (first read), 1 (last spin read, from the cache), 0xcafe0002.
# The test that runs it (memory_directed_test, HostWrite) is skipped until the SystemC
# model offers the hook; see testbench/directed/memory/README.md.
#@ threads: 8
#@ host-write: 3000 x 0xcafe0002
#@ expect seen: 1 1 0xcafe0002

SPIN = 600
        .text
        .global _start
_start:
        rdsr    r1, tid
        bnz     r1, quit
        la      r2, x
        ldw     r3, 0(r2)               # miss: the line is filled
        li      r4, SPIN
spin:   ldw     r5, 0(r2)               # hits the cached copy
        addi    r4, r4, -1
        bnz     r4, spin
        dinv    0(r2)                   # drop it
        ldw     r6, 0(r2)               # a miss: memory's value, the host's
        la      r7, seen
        stw     r3, 0(r7)
        stw     r5, 4(r7)
        stw     r6, 8(r7)
quit:   exit

        .data
seen:   .space 12
        .align 64
x:      .word 1                         # alone in its line
