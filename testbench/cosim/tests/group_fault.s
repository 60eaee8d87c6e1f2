# An instruction of a group configs/test-nofp.yaml leaves out (fmul, fp32) on one
# thread while the others run on: the RTL, the SystemC model and the ISS must stop
# with the same illegal-instruction fault, thread, pc and reason (issue 34).
_start: rdsr r1, tid
        li r2, 3
        mul r3, r1, r2
        bne r1, r2, done
        mulhu r4, r3, r3       # mulh is in test-nofp: runs
        .word 0x42050303       # fmul r5, r3, r3: fp32 is not, so it faults
                               # (umbra-as --config refuses the mnemonic itself)
done:   exit
