# all_miss.s -- every thread misses at the same moment.
#
# Phase 1: thread t loads word 0 of its line in DRAM bank t (table + 2048 t, with the
# default dram.row_bytes 2048 and 8 banks): eight fills issued in eight consecutive
# cycles, one per bank; then word 1 of the same line (a hit, or a merge if the fill is
# still in flight) and a word two lines on (another miss in the same row).
# Phase 2: thread t loads table2 + 16384 t: all eight threads in ONE bank, each in its
# own row, so every fill is a row conflict; then the next line of the same row.
#
# Expected, for thread t (out + 16 t, four words):
#   0x1001 + 16 t, 0x1002 + 16 t, 0x1003 + 16 t        (phase 1, from .data)
#   (0x2000 + t) + (0x3000 + 256 t) = 0x5000 + 257 t     (phase 2, the sum)
#@ threads: 8
#@ expect out: 0x1001 0x1002 0x1003 0x5000 0x1011 0x1012 0x1013 0x5101 0x1021 0x1022 0x1023 0x5202 0x1031 0x1032 0x1033 0x5303 0x1041 0x1042 0x1043 0x5404 0x1051 0x1052 0x1053 0x5505 0x1061 0x1062 0x1063 0x5606 0x1071 0x1072 0x1073 0x5707

        .text
        .global _start
_start:
        rdsr    r1, tid
        shli    r2, r1, 11              # 2048 t: thread t's line in bank t
        la      r3, table
        add     r3, r3, r2
        ldw     r4, 0(r3)               # all threads miss at once, eight banks
        ldw     r5, 4(r3)               # the same line: hit or merge
        ldw     r6, 64(r3)              # two lines on: a miss in an open row
        shli    r2, r1, 14              # 16384 t: bank 0, row t
        la      r7, table2
        add     r7, r7, r2
        ldw     r8, 0(r7)               # all threads miss into one bank: row conflicts
        ldw     r9, 32(r7)              # the next line of the same row
        add     r8, r8, r9
        la      r10, out
        shli    r11, r1, 4
        add     r10, r10, r11           # out + 16 t
        stw     r4, 0(r10)
        stw     r5, 4(r10)
        stw     r6, 8(r10)
        stw     r8, 12(r10)
        exit

        .data
out:    .space 128                      # 8 threads x 4 words (output)
        .align 16384
table:  # 8 rows' worth: thread t's words at table + 2048 t (bank t)
        .word 0x1001, 0x1002       # thread 0: words 0, 1
        .space 56
        .word 0x1003               # word 16 (byte 64): two lines on
        .space 1980
        .word 0x1011, 0x1012       # thread 1: words 0, 1
        .space 56
        .word 0x1013               # word 16 (byte 64): two lines on
        .space 1980
        .word 0x1021, 0x1022       # thread 2: words 0, 1
        .space 56
        .word 0x1023               # word 16 (byte 64): two lines on
        .space 1980
        .word 0x1031, 0x1032       # thread 3: words 0, 1
        .space 56
        .word 0x1033               # word 16 (byte 64): two lines on
        .space 1980
        .word 0x1041, 0x1042       # thread 4: words 0, 1
        .space 56
        .word 0x1043               # word 16 (byte 64): two lines on
        .space 1980
        .word 0x1051, 0x1052       # thread 5: words 0, 1
        .space 56
        .word 0x1053               # word 16 (byte 64): two lines on
        .space 1980
        .word 0x1061, 0x1062       # thread 6: words 0, 1
        .space 56
        .word 0x1063               # word 16 (byte 64): two lines on
        .space 1980
        .word 0x1071, 0x1072       # thread 7: words 0, 1
        .space 56
        .word 0x1073               # word 16 (byte 64): two lines on
        .space 1980
        .align 16384
table2: # thread t's words at table2 + 16384 t: all in one bank, one row each
        .word 0x2000
        .space 28
        .word 0x3000                  # the next line, same row
        .space 16348
        .word 0x2001
        .space 28
        .word 0x3100                  # the next line, same row
        .space 16348
        .word 0x2002
        .space 28
        .word 0x3200                  # the next line, same row
        .space 16348
        .word 0x2003
        .space 28
        .word 0x3300                  # the next line, same row
        .space 16348
        .word 0x2004
        .space 28
        .word 0x3400                  # the next line, same row
        .space 16348
        .word 0x2005
        .space 28
        .word 0x3500                  # the next line, same row
        .space 16348
        .word 0x2006
        .space 28
        .word 0x3600                  # the next line, same row
        .space 16348
        .word 0x2007
        .space 28
        .word 0x3700                  # the next line, same row
        .space 16348
