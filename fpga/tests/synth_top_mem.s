# synth_top_mem.s: fpga_synth_top_sim's program.  Every thread stores to the synthesis
# top's memory, reads it back and checks it, spins as many rounds as the value it read
# (so a wrong or late word changes when the run ends), then writes and reads two more
# words at other offsets.  A word that comes back wrong runs the illegal word at
# `bad`, which faults the core; so a run that ends without a fault read every word
# as written.
        .text
_start:
        rdsr    r1, tid
        shli    r2, r1, 2
        addi    r3, r1, 3               # this thread's value: tid + 3
        la      r4, buf
        add     r4, r4, r2
        stw     r3, 0(r4)
        ldw     r5, 0(r4)
        bne     r5, r3, bad
spin:
        addi    r5, r5, -1
        bnz     r5, spin
        ldw     r6, 0(r4)
        add     r6, r6, r6
        stw     r6, 64(r4)
        stw     r3, 128(r4)
        ldw     r7, 64(r4)
        ldw     r8, 128(r4)
        bne     r7, r6, bad
        bne     r8, r3, bad
        exit
bad:
        .word   0xffffffff              # no instruction: an illegal-word fault

        .data
buf:    .space  256
