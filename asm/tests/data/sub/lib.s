# Found only through an include directory (-I asm/tests/data/sub).
lib_func:
        addi r2, r1, 1
        ret
