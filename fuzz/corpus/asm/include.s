        .include "include.s"
        .include "/nonexistent/path.s"
        .text
        nop
