# atomic_histogram.s -- many threads accumulating into shared counters with atomics.
#
# n items; item i has the 32-bit value h(i), a small integer hash:
#     h = i * 0x9e3779b1;  h ^= h >> 15;  h = h * 0x85ebca6b;  h ^= h >> 13
# Item i goes to thread i mod T (T = domw).  For each item the thread
#   - counts it in bin mulhu(h, 10) (h scaled to 0..9) with red.add bins[bin], 1;
#   - adds v = h >> 20 (0..4095) to `total` with red.add, and folds it into `lo` and
#     `hi` with red.min / red.max;
#   - takes a ticket with atom.add (the returned old value of `ticket`) and marks
#     seen[ticket] with red.add, so every ticket 0..n-1 must be handed out exactly once.
# The atomics execute at the memory side, so however the threads interleave the
# results are exact: bins, total, lo, hi and ticket do not depend on the order, and
# seen[k] ends at 1 for every k < n.  That is what the test checks, for any T.
#
# Memory (.data, origin 0x10000):
#   n       1 word     number of items (input, at most 2048)
#   bins    10 words   histogram (output)
#   total   1 word     sum of v (output)
#   lo, hi  1 word     minimum and maximum v, start at 0x7fffffff and -1 (output)
#   ticket  1 word     ends equal to n (output)
#   seen    2048 words times each ticket was drawn (output)
# Registers: r1 launch index, r2 threads, r3 n, r4 item index, r5/r6 hash
#            multipliers, r7 ten, r8 one, r9 h, r10 scratch, r11 bins, r12 total,
#            r13 lo, r14 hi, r15 ticket, r16 seen, r17 v.

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r10, n
        ldw     r3, 0(r10)              # n
        li      r5, 0x9e3779b1
        li      r6, 0x85ebca6b
        movi    r7, 10                  # bins
        movi    r8, 1
        la      r11, bins
        la      r12, total
        la      r13, lo
        la      r14, hi
        la      r15, ticket
        la      r16, seen
        mov     r4, r1                  # i = launch index
        j       test
item:
        mul     r9, r4, r5              # h = i * 0x9e3779b1
        shri    r10, r9, 15
        xor     r9, r9, r10             # h ^= h >> 15
        mul     r9, r9, r6              # h *= 0x85ebca6b
        shri    r10, r9, 13
        xor     r9, r9, r10             # h ^= h >> 13
        mulhu   r10, r9, r7             # bin = (h * 10) >> 32
        shli    r10, r10, 2
        add     r10, r11, r10
        red.add r10, r8                 # bins[bin] += 1
        shri    r17, r9, 20             # v = h >> 20
        red.add r12, r17                # total += v
        red.min r13, r17                # lo = min(lo, v)
        red.max r14, r17                # hi = max(hi, v)
        atom.add r10, r15, r8           # r10 = ticket++
        shli    r10, r10, 2
        add     r10, r16, r10
        red.add r10, r8                 # seen[ticket] += 1
        add     r4, r4, r2              # next item of this thread
test:
        bltu    r4, r3, item
        exit

        .data
n:      .word   2048
bins:   .space  10 * 4
total:  .word   0
lo:     .word   0x7fffffff
hi:     .word   -1
ticket: .word   0
seen:   .space  2048 * 4
