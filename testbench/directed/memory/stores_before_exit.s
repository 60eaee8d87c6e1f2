# stores_before_exit.s -- the reorder queue still holds stores when every thread exits.
#
# Thread t stores two words into its own row of DRAM bank 0 (rows + 16384 t and
# rows + 16384 t + 64, with the default dram.row_bytes 2048 and 8 banks: row 16384 t
# apart is the same bank, the next row), then exits at once.  The sixteen stores of the
# eight threads conflict in one bank, so the queue is still sending them to DRAM when
# the core has nothing left to run: the system is busy (the queue's pending DRAM
# traffic) after the core is not.  A run that ends when the core goes idle loses them;
# the system's busy output must cover the queue, and the final memory shows it.
#
# Expected, for thread t: rows + 16384 t = 0x100 + t, rows + 16384 t + 64 = 0x200 + t.
#@ threads: 8
#@ expect rows+0: 0x100
#@ expect rows+64: 0x200
#@ expect rows+16384: 0x101
#@ expect rows+16448: 0x201
#@ expect rows+32768: 0x102
#@ expect rows+32832: 0x202
#@ expect rows+49152: 0x103
#@ expect rows+49216: 0x203
#@ expect rows+65536: 0x104
#@ expect rows+65600: 0x204
#@ expect rows+81920: 0x105
#@ expect rows+81984: 0x205
#@ expect rows+98304: 0x106
#@ expect rows+98368: 0x206
#@ expect rows+114688: 0x107
#@ expect rows+114752: 0x207

        .text
        .global _start
_start:
        rdsr    r1, tid
        shli    r2, r1, 14              # 16384 t: bank 0, thread t's own row
        la      r3, rows
        add     r3, r3, r2
        movi    r4, 0x100
        add     r4, r4, r1              # 0x100 + t
        movi    r5, 0x200
        add     r5, r5, r1              # 0x200 + t
        stw     r4, 0(r3)
        stw     r5, 64(r3)
        exit

        .data
        .align 16384
rows:   .space 131072                   # 8 rows of bank 0, 16384 bytes apart
