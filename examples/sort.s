# sort.s -- sort an array of signed words, many threads, no barrier, no lock.
#
# A rank sort: the final position of element i is the number of elements that must
# come before it,
#     rank(i) = #{ j < i : a[j] <= a[i] } + #{ j > i : a[j] < a[i] },
# which counts equal keys that come earlier, so ranks are distinct (the sort is stable)
# and every element is written exactly once: sorted[rank(i)] = a[i].  Element i goes
# to thread i mod T (T = domw), and since no thread reads what another writes, the
# threads need no synchronization at all.  O(n^2) work, but it is the work a GPU would
# do: every element independent, every thread busy until the end.
#
# Memory (.data, origin 0x10000):
#   n       1 word      number of elements (input, at most 128)
#   array   128 words   the keys (input; 100 values in -60..60, with repeats)
#   sorted  128 words   the keys in ascending signed order (output; words past n are
#                       left as they were)
# Registers: r1 launch index, r2 threads launched, r3 scratch, r4 n, r5 array,
#            r6 sorted, r7 end of array, r8 element index i, r9 byte offset,
#            r10 &a[i], r11 a[i], r12 rank, r13 scan pointer, r14 a[j], r15 compare.

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r3, n
        ldw     r4, 0(r3)               # r4 = n
        la      r5, array
        la      r6, sorted
        shli    r7, r4, 2
        add     r7, r5, r7              # r7 = &a[n]
        mov     r8, r1                  # i = launch index
elem:
        bgeu    r8, r4, done
        shli    r9, r8, 2
        add     r10, r5, r9             # r10 = &a[i]
        ldw     r11, 0(r10)             # x = a[i]
        movi    r12, 0                  # rank = 0
        mov     r13, r5                 # scan a[0..i-1]: count a[j] <= x
        j       before_test
before:
        ldw     r14, 0(r13)
        sle     r15, r14, r11
        add     r12, r12, r15
        addi    r13, r13, 4
before_test:
        bltu    r13, r10, before
        addi    r13, r10, 4             # scan a[i+1..n-1]: count a[j] < x
        j       after_test
after:
        ldw     r14, 0(r13)
        slt     r15, r14, r11
        add     r12, r12, r15
        addi    r13, r13, 4
after_test:
        bltu    r13, r7, after
        shli    r12, r12, 2
        add     r12, r6, r12
        stw     r11, 0(r12)             # sorted[rank] = x
        add     r8, r8, r2              # next element of this thread
        j       elem
done:
        exit

        .data
n:      .word   100
array:
        .word   50, -21, 25, -24, 47, 60, -40, 12, -8, -56, -7, 33
        .word   -22, 7, 34, -42, 13, -55, -48, -10, -30, -29, 36, -31
        .word   30, 54, 44, -40, 43, -27, -33, -34, 50, -30, -15, -40
        .word   -20, -4, -7, -28, 58, -2, -29, 11, 4, 15, -23, 55
        .word   -13, 46, 28, -2, 56, -42, -51, 33, -9, -23, 29, -51
        .word   -41, -55, -28, -41, -11, 0, -19, -37, -34, -2, 24, 54
        .word   -45, -51, 18, -26, 22, 53, -36, 36, 11, -17, -4, -8
        .word   6, 19, 9, -40, -31, -41, 14, 47, 56, 1, -12, 20
        .word   47, -43, 2, 35
        .space  (128 - 100) * 4
sorted: .space  128 * 4
