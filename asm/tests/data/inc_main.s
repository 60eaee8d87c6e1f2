# .include: inc/defs.s is found next to this file; lib.s only through an include dir.
        .include "inc/defs.s"
        .include "lib.s"
_start: li r1, ANSWER
        call lib_func
        exit
