# fib.s -- calls and returns: naive recursive Fibonacci with a stack per thread.
#
# results[k] = fib(args[k]) for k = 0..n-1, fib(0) = 0, fib(1) = 1, computed by the
# doubly recursive definition so that the program makes thousands of nested calls.
# Job k goes to thread k mod T (T = domw).  Each thread owns a 512-byte stack in
# .data, stacks + (launch index + 1) * 512 being its initial stack pointer (the stack
# grows down), so at most 16 threads have a stack; a thread beyond them (a thread
# launch on several cores, whose launch indices run over all of them) has no job, since
# n <= 16, and exits at once.  A thread leaves its final stack pointer minus the initial
# one in sp_delta[launch index]: 0 if every call popped what it pushed.
#
# Calling convention used here (and by the other examples that call):
#   r31  link register: `call f` is jal r31, f; `ret` is jalr r0, r31
#   r30  stack pointer, word aligned, grows down; a callee restores it
#   r3   argument and return value; r4 scratch the callee may clobber
#   every other register is preserved by the callee
# A non-leaf frame is 12 bytes: saved r31, the argument n, fib(n - 1).
#
# Memory (.data, origin 0x10000):
#   n         1 word     number of jobs (input, at most 16)
#   args      16 words   arguments, each at most 24 (input)
#   results   16 words   fib of each argument (output)
#   sp_delta  16 words   per thread, 0 if the stack was balanced (output)
#   stacks    16 * 512 bytes

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        slti    r3, r1, 16
        bz      r3, no_stack            # launch index 16 or more: no stack, no job
        la      r30, stacks
        addi    r5, r1, 1
        shli    r5, r5, 9
        add     r30, r30, r5            # sp = top of this thread's stack
        mov     r13, r30                # remember it
        la      r6, n
        ldw     r7, 0(r6)               # n jobs
        la      r8, args
        la      r9, results
        mov     r10, r1                 # job k = launch index
        j       test
job:
        shli    r11, r10, 2
        add     r12, r8, r11
        ldw     r3, 0(r12)              # argument
        call    fib                     # r3 = fib(argument)
        add     r12, r9, r11
        stw     r3, 0(r12)              # results[k]
        add     r10, r10, r2            # next job of this thread
test:
        blt     r10, r7, job
        sub     r13, r30, r13           # sp now - sp at start
        la      r12, sp_delta
        shli    r11, r1, 2
        add     r12, r12, r11
        stw     r13, 0(r12)
no_stack:
        exit

# fib: r3 = fib(r3).  Clobbers r4.
fib:
        slti    r4, r3, 2
        bnz     r4, fib_ret             # n < 2: fib(n) = n, a leaf: no frame
        addi    r30, r30, -12           # push a frame
        stw     r31, 0(r30)             # return address
        stw     r3, 4(r30)              # n
        addi    r3, r3, -1
        call    fib                     # r3 = fib(n - 1)
        stw     r3, 8(r30)
        ldw     r3, 4(r30)
        addi    r3, r3, -2
        call    fib                     # r3 = fib(n - 2)
        ldw     r4, 8(r30)
        add     r3, r3, r4              # fib(n - 1) + fib(n - 2)
        ldw     r31, 0(r30)
        addi    r30, r30, 12            # pop the frame
fib_ret:
        ret

        .data
n:      .word   16
args:   .word   17, 0, 1, 2, 12, 10, 5, 16, 3, 11, 7, 15, 1, 9, 14, 4
results:
        .space  16 * 4
sp_delta:
        .space  16 * 4
        .align  32
stacks: .space  16 * 512
