        .text
_start: mov     r1, r2
        not     r3, r4
        neg     r5, r6
        call    f
        b       done
f:      ret
done:   li      r7, 70000
        li      r8, fwd
        exit
fwd = 0x10000
