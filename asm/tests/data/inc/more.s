# Included from inc/defs.s by a path relative to inc/.
MORE = ANSWER + 1
