# page0.s -- requests to DRAM page 0 (bank 0, row 0: addresses 0..2047) competing in the
# reorder queue with requests to another row of the same bank.
#
# The queue's open-row table starts empty.  An entry never written must not count as
# an open row, or a request to bank 0, row 0 -- the (bank, row) an all-zero entry names
# -- is taken for a row hit and sent out of order.  Programs whose data start at 0x10000
# (bank 0, row 4) never touch page 0, so this one does: in each of 4 rounds thread t
# stores 16 t + round + 1 to word t of page 0 (address 4 t) and loads a word of `table`
# (bank 0, row 4: a conflict), then reads its page-0 word back.  The cosimulation
# compares the DRAM transfers cycle by cycle, so a different order shows at once.
#
# Expected, for thread t (out + 4 t): the last page-0 value 16 t + 4 plus the four
# table words 1 + 2 + 3 + 4 = 10, i.e. 16 t + 14.
#@ threads: 8
#@ expect out: 14 30 46 62 78 94 110 126

        .text
        .global _start
_start:
        rdsr    r1, tid
        shli    r2, r1, 2               # 4 t: thread t's word of page 0
        shli    r6, r1, 4               # 16 t
        la      r3, table
        movi    r7, 0                   # the sum of the table words
        movi    r5, 0                   # round
loop:   addi    r5, r5, 1
        add     r4, r6, r5              # 16 t + round
        stw     r4, 0(r2)               # page 0
        ldw     r8, 0(r3)               # bank 0, row 4: another row
        add     r7, r7, r8
        addi    r3, r3, 4
        slti    r9, r5, 4
        bnz     r9, loop
        ldw     r4, 0(r2)               # page 0 again: 16 t + 4
        add     r7, r7, r4
        la      r10, out
        add     r10, r10, r2
        stw     r7, 0(r10)
        exit

        .data
out:    .space 32
table:  .word 1, 2, 3, 4
