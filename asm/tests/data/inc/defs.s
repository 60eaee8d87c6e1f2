# Included relative to inc_main.s; it includes a file relative to its own directory.
ANSWER = 42
        .include "more.s"
