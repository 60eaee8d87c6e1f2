# cycle_a.s includes cycle_b.s, which includes cycle_a.s again.
        nop
        .include "cycle_b.s"
