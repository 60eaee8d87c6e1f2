# timeline.s: the short program of the characterization report's issue timeline
# (bench/report.sh runs it with `umbra-sim --timeline`, configs/fixed-memory.yaml, 4 of
# the 8 threads).  Every thread loads the same word and uses it at once, so the picture
# shows the three kinds of bubble in a few rounds: `idle` for the four contexts never
# launched, `memory` while a load sleeps its thread, `exited` after the end.  What the
# contract predicts (docs/memory-system.md; the same rule as clock_bench's load
# experiment): thread 0 misses and sleeps ceil((L + W - 1) / T) slots (fixed memory:
# latency L = 12, W = 8 beats a line); thread t, fetching its load t cycles later,
# merges into that fill and sleeps ceil((L + W - 1 - t) / T): 3, 3, 3, 2 slots.
        .data
cell:   .word   7
        .text
_start: la      r6, cell
        ldw     r7, 0(r6)
        add     r8, r7, r7              # uses the loaded word
        addi    r8, r8, 1
        exit
