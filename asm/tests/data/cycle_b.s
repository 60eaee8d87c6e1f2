# Part of the include cycle test (see cycle_a.s).
        .include "cycle_a.s"
