# cas_lock.s -- a spin lock built on atom.cas, guarding plain loads and stores.
#
# Every thread enters the critical section `iters` times.  Inside, with ordinary
# ldw/stw (not atomic), it adds 1 to `counter` and its own launch index + 1 to
# `owners`.  The lock word is 0 when free and the owner's launch index + 1 when held:
#   acquire:  atom.cas old, lock, me with old = 0, retried until the old value was 0
#   inside:   dinv drops any stale cached copy of the guarded line before the loads
#             (coherence is the program's business); dflush waits until the stores
#             reached memory before the release
#   release:  red.xchg lock, 0, ordered with the other atomics
# Without the lock, two threads could load the same counter value and one increment
# would be lost; with it the results are exact: counter = T * iters and
# owners = iters * T * (T + 1) / 2 for T = domw threads, and the lock ends free (0).
#
# Memory (.data, origin 0x10000):
#   iters    1 word   entries per thread (input, 8)
#   lock     1 word   0 = free (output: 0)
#   counter  1 word   the guarded counter, in its own 32-byte line (output)
#   owners   1 word   sum of launch index + 1 over all entries, same line (output)
# Registers: r1 launch index, r2 threads, r3 lock, r4 guarded line, r5 scratch,
#            r6 entries left, r7 this thread's lock value, r8 old lock value,
#            r9 counter, r10 owners.

        .text
_start:
        rdsr    r1, lx
        rdsr    r2, domw
        la      r3, lock
        la      r4, counter
        la      r5, iters
        ldw     r6, 0(r5)               # entries left
        addi    r7, r1, 1               # lock value: launch index + 1
        bz      r6, done
acquire:
        movi    r8, 0                   # expect a free lock ...
        atom.cas r8, r3, r7             # ... and take it: r8 = what the lock held
        bnz     r8, acquire             # somebody else has it: try again
        dinv    0(r4)                   # critical section: fresh copy of the line
        ldw     r9, 0(r4)
        addi    r9, r9, 1
        stw     r9, 0(r4)               # counter += 1
        ldw     r10, 4(r4)
        add     r10, r10, r7
        stw     r10, 4(r4)              # owners += launch index + 1
        dflush                          # both stores are in memory ...
        red.xchg r3, r0                 # ... before the lock is free again
        addi    r6, r6, -1
        bnz     r6, acquire
done:
        exit

        .data
iters:  .word   8
lock:   .word   0
        .align  32
counter:
        .word   0
owners: .word   0
