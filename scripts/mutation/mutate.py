#!/usr/bin/env python3
"""mutate.py: the source-level mutator of the mutation campaign (campaign.py).

It reads the RTL (the files of rtl/core_files.txt plus rtl/umbra_system.v and
rtl/reorder_queue.v) and the SystemC model's blocks (systemc/<block>.cpp|h), finds every
place one of the classic one-line bugs can be planted, and draws a reproducible sample:

  operator   an operator swapped for its neighbour (== !=, < <=, + -, && ||, & |, << >>)
  constant   a literal off by one (3 -> 2 or 4, 1'b0 -> 1'b1, 4'd7 -> 4'd6)
  condition  an `if`/`while` condition inverted
  mux        the two arms of a `c ? a : b` swapped
  term       one operand of && / || dropped (a missing ordering or guard term)
  stuck      an enable-like signal (…en, we, valid, ready, fire, hit, busy, …) stuck at 0 or 1
  reset      a reset value changed (in the branch under `if (rst…)`)

It parses whatever the files hold now (other people edit them): a line is scanned after
comments and string literals are masked, declarations without logic (ports, `wire x;`,
parameters, includes, class/struct heads, function signatures) are skipped, and an
operand is found with a small precedence scanner on the one line, so a candidate whose
operand runs past the line is dropped rather than guessed.  Mutants are drawn per block
in proportion to the block's count of code lines (largest remainder, every block at least
one when the sample is large enough), each block from its own seeded stream, so a seed
names the same sample on the same tree.  A mutant is identified by a hash of
file, original line and mutated line, not its line number, so a results file survives
edits elsewhere in the file.

Standard library only (no PyPI), so the campaign runs wherever the build does.
"""
import argparse
import hashlib
import json
import os
import random
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# SystemC files that are drivers or the checker's interface rather than the model.
SYSTEMC_NOT_MODEL = {"events", "host_driver", "systemc_run", "umbra_systemc_run", "examples_model"}


def model_files(root=ROOT):
    """[(block, path relative to root, language)] of every file the campaign mutates."""
    out = []
    with open(os.path.join(root, "rtl", "core_files.txt")) as f:
        rtl = [ln.split("#")[0].strip() for ln in f]
    rtl = [r for r in rtl if r] + ["reorder_queue.v", "round_robin.v", "dispatcher.v", "command_processor.v", "umbra_system.v"]
    for name in sorted(set(rtl)):
        out.append(("rtl/" + name[:-2], "rtl/" + name, "verilog"))
    for name in sorted(os.listdir(os.path.join(root, "systemc"))):
        stem, ext = os.path.splitext(name)
        if ext in (".cpp", ".h") and stem not in SYSTEMC_NOT_MODEL:
            out.append(("systemc/" + stem, "systemc/" + name, "cpp"))
    return out


# ---------------------------------------------------------------------------------------
# Masking: comments and string literals become spaces, so columns stay where they are.


def mask_lines(text, lang):
    """The file's lines with comments and string contents blanked."""
    out, i, n = [], 0, len(text)
    buf = []
    in_block = False
    while i < n:
        c = text[i]
        if in_block:
            if text.startswith("*/", i):
                buf.append("  ")
                i += 2
                in_block = False
            else:
                buf.append("\n" if c == "\n" else " ")
                i += 1
            continue
        if text.startswith("/*", i):
            in_block = True
            buf.append("  ")
            i += 2
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                buf.append(" ")
                i += 1
        elif c == '"':
            buf.append('"')
            i += 1
            while i < n and text[i] != '"' and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n:
                    buf.append("  ")
                    i += 2
                    continue
                buf.append(" ")
                i += 1
            if i < n and text[i] == '"':
                buf.append('"')
                i += 1
        elif c == "'" and lang == "cpp":
            # A character literal ('a', '\n'); C++14 digit separators do not occur here.
            j = text.find("'", i + 1)
            if 0 < j - i <= 3 and "\n" not in text[i:j]:
                buf.append("'" + " " * (j - i - 1) + "'")
                i = j + 1
            else:
                buf.append(c)
                i += 1
        else:
            buf.append(c)
            i += 1
    return "".join(buf).split("\n")


# ---------------------------------------------------------------------------------------
# Tokens of one masked line: (kind, text, start column).

OPS = {
    "verilog": ["<<<", ">>>", "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "~&", "~|",
                "~^", "^~", "+:", "-:", "**"],
    "cpp": ["<<=", ">>=", "->", "::", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "+=", "-=", "|=",
            "&=", "^=", "*=", "++", "--"],
}
NUM_RE = {
    "verilog": re.compile(r"(\d+)?'[sS]?([bBdDhH])([0-9a-fA-F_xXzZ]+)|\d[\d_]*"),
    "cpp": re.compile(r"0[xX][0-9a-fA-F']+[uUlL]*|\d[\d']*(\.\d*)?([eE][+-]?\d+)?[uUlLfF]*"),
}
IDENT_RE = re.compile(r"[A-Za-z_`$][A-Za-z0-9_$]*")


def tokenize(line, lang):
    toks, i, n = [], 0, len(line)
    ops = OPS[lang]
    while i < n:
        c = line[i]
        if c.isspace():
            i += 1
            continue
        m = NUM_RE[lang].match(line, i)
        if m and (c.isdigit() or c == "'"):
            toks.append(("num", m.group(0), i))
            i = m.end()
            continue
        m = IDENT_RE.match(line, i)
        if m:
            toks.append(("id", m.group(0), i))
            i = m.end()
            continue
        for op in ops:
            if line.startswith(op, i):
                toks.append(("op", op, i))
                i += len(op)
                break
        else:
            toks.append(("op", c, i))
            i += 1
    return toks


# ---------------------------------------------------------------------------------------
# What a line is.

VERILOG_DECL = {"input", "output", "inout", "wire", "reg", "integer", "genvar", "parameter", "localparam",
                "module", "endmodule", "function", "endfunction", "task", "endtask", "generate",
                "endgenerate", "begin", "end", "endcase", "default", "case", "casez", "for"}
CPP_SKIP_FIRST = {"#include", "#pragma", "#define", "#if", "#ifdef", "#ifndef", "#endif", "#else", "using",
                  "namespace", "class", "struct", "enum", "template", "typedef", "public", "private",
                  "protected", "static_assert", "friend", "SC_METHOD", "SC_THREAD", "SC_CTHREAD", "SC_CTOR",
                  "SC_HAS_PROCESS", "sensitive", "dont_initialize", "case", "default"}
# An enable-like name: the signal that gates an action.
ENABLE_RE = re.compile(r"(^|_)(en|enable|we|valid|ready|fire|hit|busy|stall|go|start|req|issue|take|accept)"
                       r"(_q|_d|_r|_o|_)?$")


def mutable_span(toks, lang):
    """(first token index to mutate, reason to skip or None) for one line's tokens."""
    if not toks:
        return 0, "blank"
    first = toks[0][1]
    if lang == "verilog":
        if first.startswith("`"):
            return 0, "directive"
        if first in ("parameter", "localparam", "module", "endmodule", "function", "task", "genvar",
                     "integer", "for"):
            # `for` headers of generate and procedural loops are structure: a changed
            # step or bound hangs or breaks elaboration rather than planting a bug.
            return 0, "declaration"
        if first in ("input", "output", "inout", "wire", "reg"):
            # `wire x = expr;` is a continuous assignment: its right-hand side is logic.
            for k, t in enumerate(toks):
                if t[1] == "=":
                    return k + 1, None
            return 0, "declaration"
        return 0, None
    # C++
    if first == "#" or first in CPP_SKIP_FIRST:
        return 0, "declaration"
    text = " ".join(t[1] for t in toks)
    ids = [t[1] for t in toks if t[0] == "id"]
    if ids and ids[0] in ("if", "else", "for", "while", "switch", "return", "do"):
        return 0, None
    # A function signature or declaration: name(…) followed by { or ; or const/override,
    # with no assignment before the parenthesis.
    if re.search(r"[A-Za-z_]\w*\s*\(", text) and re.search(r"\)\s*(const\s*)?(override\s*)?(\{|;|:)?\s*$",
                                                              text):
        before = text.split("(")[0]
        if "=" not in before and "." not in before and "->" not in before and len(before.split()) >= 2:
            return 0, "declaration"
    # `Type name;` or `Type name[N];` or `Type name{};` without an initialiser.
    if toks[-1][1] == ";" and "=" not in [t[1] for t in toks] and "(" not in [t[1] for t in toks]:
        return 0, "declaration"
    for k, t in enumerate(toks):
        if t[1] == "=":
            return k + 1, None
    return 0, None


# Binary operator precedence (higher binds tighter); shared by both languages here.
PREC = {"*": 10, "/": 10, "%": 10, "+": 9, "-": 9, "<<": 8, ">>": 8, "<<<": 8, ">>>": 8, "<": 7, "<=": 7,
        ">": 7, ">=": 7, "==": 6, "!=": 6, "===": 6, "!==": 6, "&": 5, "^": 4, "~^": 4, "^~": 4, "|": 3,
        "&&": 2, "||": 1}
OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")", "]", "}"}
STOP = {"?", ":", ",", ";", "=", "+:", "-:", "+=", "-=", "|=", "&=", "^=", "<<=", ">>=", "return"}


def is_operand_end(tok):
    return tok[0] in ("id", "num") or tok[1] in CLOSE


def operand_bounds(toks, k, prec, assign_idx):
    """Token index range [lo, hi) of the left and right operands of the binary operator at
    k, or None when an operand is empty or crosses something it should not."""
    def scan(step, start):
        depth, j = 0, start
        while 0 <= j < len(toks):
            t = toks[j][1]
            if step > 0 and t in OPEN or step < 0 and t in CLOSE:
                depth += 1
            elif step > 0 and t in CLOSE or step < 0 and t in OPEN:
                if depth == 0:
                    return j
                depth -= 1
            elif depth == 0:
                if j == assign_idx or t in STOP or t == "?":
                    return j
                if toks[j][0] == "op" and t in PREC and PREC[t] <= prec and binary_at(toks, j):
                    return j
            j += step
        return j

    lo = scan(-1, k - 1) + 1
    hi = scan(1, k + 1)
    if lo >= k or hi <= k + 1:
        return None
    return lo, hi


def binary_at(toks, j):
    return j > 0 and is_operand_end(toks[j - 1])


SWAP = {"==": "!=", "!=": "==", "<": "<=", "<=": "<", ">": ">=", ">=": ">", "+": "-", "-": "+", "&&": "||",
        "||": "&&", "&": "|", "|": "&", "<<": ">>", ">>": "<<", "^": "|"}


def bump(numtext, lang, delta):
    """The literal changed by delta, or None when it cannot be (width, x/z digits)."""
    if lang == "verilog":
        m = re.fullmatch(r"(\d+)?'([sS]?)([bBdDhH])([0-9a-fA-F_]+)", numtext)
        if m:
            width = int(m.group(1)) if m.group(1) else None
            base = {"b": 2, "d": 10, "h": 16}[m.group(3).lower()]
            v = int(m.group(4).replace("_", ""), base) + delta
            if v < 0 or (width is not None and v >= (1 << width)):
                return None
            digits = {2: format(v, "b"), 10: str(v), 16: format(v, "x")}[base]
            return (m.group(1) or "") + "'" + m.group(2) + m.group(3) + digits
        if re.fullmatch(r"\d[\d_]*", numtext):
            v = int(numtext.replace("_", "")) + delta
            return str(v) if v >= 0 else None
        return None
    m = re.fullmatch(r"(0[xX])?([0-9a-fA-F']+)([uUlL]*)", numtext)
    if not m or "." in numtext:
        return None
    base = 16 if m.group(1) else 10
    if base == 10 and not m.group(2).replace("'", "").isdigit():
        return None
    v = int(m.group(2).replace("'", ""), base) + delta
    if v < 0:
        return None
    return (m.group(1) or "") + (format(v, "x") if base == 16 else str(v)) + m.group(3)


def part_select_bound(toks, k):
    """Whether the number at k is (part of) a bound of a Verilog part-select [hi:lo] or
    [base +: width]; a lone index [3] is not."""
    depth = 0
    for j in range(k - 1, -1, -1):
        t = toks[j][1]
        if t in CLOSE:
            depth += 1
        elif t in OPEN:
            if depth == 0:
                if t == "(":
                    continue  # inside a parenthesised bound, e.g. [32*(N-1)-1:0]
                if t != "[":
                    return False
                d2 = 0
                for i in range(j + 1, len(toks)):
                    u = toks[i][1]
                    if u in OPEN:
                        d2 += 1
                    elif u in CLOSE:
                        if d2 == 0:
                            return False
                        d2 -= 1
                    elif d2 == 0 and u in (":", "+:", "-:"):
                        return True
                return False
            depth -= 1
    return False


def line_candidates(raw, masked, lang, in_reset):
    """[(kind, mutated line)] for one source line."""
    toks = tokenize(masked, lang)
    first, skip = mutable_span(toks, lang)
    if skip:
        return []
    out = []

    def edit(a, b, text):
        return raw[:a] + text + raw[b:]

    def tok_end(t):
        return t[2] + len(t[1])

    # The assignment operator of the statement on this line, if any (Verilog `<=` at
    # depth 0 before any other is the non-blocking assignment, not a comparison).
    assign_idx = None
    depth = 0
    for k, t in enumerate(toks):
        if t[1] in OPEN:
            depth += 1
        elif t[1] in CLOSE:
            depth -= 1
        elif depth == 0 and t[1] in ("=", "<=") and k > 0 and toks[k - 1][0] in ("id",) + ("op",) * (
                toks[k - 1][1] == "]"):
            assign_idx = k
            break
    if lang == "verilog" and assign_idx is None:
        # Without an assignment on the line a depth-0 `<=` is ambiguous: leave it alone.
        pass
    cpp_stream = lang == "cpp" and ('"' in masked or re.search(r"\b(os|out|ss|std::c\w+|sensitive)\s*<<",
                                                                masked))

    # operator swaps and dropped terms
    for k in range(max(first, 0), len(toks)):
        kind, text, col = toks[k]
        if kind != "op" or text not in SWAP or k == assign_idx:
            continue
        if not binary_at(toks, k) or k + 1 >= len(toks):
            continue
        if text == "<=" and lang == "verilog" and assign_idx is None:
            continue
        if lang == "cpp":
            # clang-format spaces binary operators; templates, pointers and references
            # are not spaced on both sides.
            if not (col > 0 and raw[col - 1] == " " and col + len(text) < len(raw) and raw[col + len(text)] == " "):
                continue
            if text in ("<<", ">>") and cpp_stream:
                continue
        if text in ("&", "|", "^") and lang == "verilog" and toks[k - 1][1] in ("(", ","):
            continue  # a reduction operator, not binary
        out.append(("operator", edit(col, col + len(text), SWAP[text])))
        if text in ("&&", "||"):
            b = operand_bounds(toks, k, PREC[text], assign_idx)
            if b:
                lo, hi = b
                # drop the right operand (with the operator), or the left one
                out.append(("term", edit(tok_end(toks[k - 1]), tok_end(toks[hi - 1]), "")))
                out.append(("term", edit(toks[lo][2], toks[k + 1][2], "")))

    # constants: off by one; under reset, a changed reset value
    for k in range(max(first, 0), len(toks)):
        kind, text, col = toks[k]
        if kind != "num":
            continue
        if k + 1 < len(toks) and toks[k + 1][1] == "{":
            continue  # a replication count: changes a width, not a value
        if lang == "verilog" and part_select_bound(toks, k):
            continue  # a bound of [hi:lo] changes a width: Verilator refuses it (WIDTH)
        label = "reset" if in_reset and assign_idx is not None and k > assign_idx else "constant"
        for delta in (1, -1):
            new = bump(text, lang, delta)
            if new is not None and new != text:
                out.append((label, edit(col, col + len(text), new)))

    # conditions: if/while (…) inverted, when the parenthesis closes on this line
    for k, t in enumerate(toks):
        if t[1] in ("if", "while") and k + 1 < len(toks) and toks[k + 1][1] == "(":
            depth = 0
            for j in range(k + 1, len(toks)):
                if toks[j][1] in OPEN:
                    depth += 1
                elif toks[j][1] in CLOSE:
                    depth -= 1
                    if depth == 0:
                        a, b = toks[k + 1][2] + 1, toks[j][2]
                        inner = raw[a:b]
                        label = "condition"
                        out.append((label, edit(a, b, "!(" + inner + ")")))
                        # a lone enable as the condition: stuck at 0 and 1
                        if j == k + 3 and toks[k + 2][0] == "id" and ENABLE_RE.search(toks[k + 2][1]):
                            for v in ("1'b0", "1'b1") if lang == "verilog" else ("false", "true"):
                                out.append(("stuck", edit(a, b, v)))
                        break

    # mux arms: c ? a : b on one line
    for k, t in enumerate(toks):
        if t[1] != "?" or k < first:
            continue
        depth, colon = 0, None
        for j in range(k + 1, len(toks)):
            s = toks[j][1]
            if s in OPEN:
                depth += 1
            elif s in CLOSE:
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and s == "?":
                break  # nested: leave it
            elif depth == 0 and s == ":":
                colon = j
                break
        if colon is None or colon == k + 1:
            continue
        depth, end = 0, None
        for j in range(colon + 1, len(toks)):
            s = toks[j][1]
            if s in OPEN:
                depth += 1
            elif s in CLOSE:
                if depth == 0:
                    end = j
                    break
                depth -= 1
            elif depth == 0 and s in (";", ",", "?", ":"):
                end = j if s in (";", ",") else None
                break
        if end is None or end == colon + 1:
            continue
        a_lo, a_hi = toks[k + 1][2], tok_end(toks[colon - 1])
        b_lo, b_hi = toks[colon + 1][2], tok_end(toks[end - 1])
        arm_a, arm_b = raw[a_lo:a_hi], raw[b_lo:b_hi]
        if arm_a.strip() == arm_b.strip():
            continue
        out.append(("mux", raw[:a_lo] + arm_b + raw[a_hi:b_lo] + arm_a + raw[b_hi:]))

    # stuck enables: an assignment to an enable-like signal gets a constant
    if assign_idx is not None and assign_idx > 0:
        lhs = [t for t in toks[:assign_idx] if t[0] == "id" and t[1] not in ("assign", "wire", "reg", "bool",
                                                                               "const", "auto")]
        end = next((j for j in range(assign_idx + 1, len(toks)) if toks[j][1] == ";"), None)
        vector = lang == "verilog" and toks[0][1] in ("wire", "reg") and "[" in [t[1] for t in toks[:assign_idx]]
        if lhs and end is not None and end > assign_idx + 1 and ENABLE_RE.search(lhs[-1][1]) and not vector:
            a, b = toks[assign_idx + 1][2], toks[end][2]
            for v in ("1'b0", "1'b1") if lang == "verilog" else ("false", "true"):
                if raw[a:b].strip() != v:
                    out.append(("stuck", edit(a, b, v)))
    if lang == "cpp":
        for m in re.finditer(r"\b(\w+)\.write\(", masked):
            if not ENABLE_RE.search(m.group(1)):
                continue
            a = m.end()
            depth, b = 1, None
            for j in range(a, len(masked)):
                if masked[j] == "(":
                    depth += 1
                elif masked[j] == ")":
                    depth -= 1
                    if depth == 0:
                        b = j
                        break
            if b is not None and b > a:
                for v in ("false", "true"):
                    if raw[a:b].strip() != v:
                        out.append(("stuck", edit(a, b, v)))

    seen, uniq = set(), []
    for kind, new in out:
        if new != raw and new not in seen:
            seen.add(new)
            uniq.append((kind, new))
    return uniq


GUARD_RE = re.compile(r"\bthrow\b|\$error|\$fatal|\$stop|\bu_error\b")
IF_RE = re.compile(r"^\s*(}\s*)?(else\s+)?if\b")


def guard_lines(masked):
    """Indices of the lines of configuration guards: an `if` whose body throws or
    instantiates an elaboration error (rtl: `u_error`).  They reject bad parameters, so a
    mutant there is equivalent on every valid configuration the cosim can run."""
    out = set()
    for i, m in enumerate(masked):
        if not GUARD_RE.search(m):
            continue
        for j in range(i, max(i - 5, -1), -1):
            if IF_RE.search(masked[j]):
                out.update(range(j, i + 1))
                break
    return out


RESET_RE = re.compile(r"\bif\s*\(\s*!?\s*(rst|reset)\w*(\.read\(\))?\s*\)")


def file_candidates(root, path, lang):
    """(code line count, [mutant dict]) of one file."""
    with open(os.path.join(root, path)) as f:
        text = f.read()
    raw_lines = text.split("\n")
    masked = mask_lines(text, lang)
    guards = guard_lines(masked)
    cands, code_lines, in_reset = [], 0, False
    for i, (raw, m) in enumerate(zip(raw_lines, masked)):
        if not m.strip():
            continue
        if i in guards:
            code_lines += 1
            continue
        code_lines += 1
        if RESET_RE.search(m):
            in_reset = True
            continue
        if in_reset and re.search(r"\belse\b", m):
            in_reset = False
        for kind, new in line_candidates(raw, m, lang, in_reset):
            cands.append({"file": path, "line": i + 1, "kind": kind, "original": raw, "mutated": new})
        if in_reset and lang == "cpp" and m.strip() == "}":
            in_reset = False
    return code_lines, cands


def mutant_id(m):
    h = hashlib.sha1("\0".join([m["file"], m["original"], m["mutated"]]).encode()).hexdigest()
    return h[:12]


def allocate(sizes, n):
    """Largest-remainder split of n over blocks by size; each block gets at least one
    when n is at least the number of blocks."""
    total = sum(sizes.values())
    if total == 0 or n <= 0:
        return {b: 0 for b in sizes}
    floor_each = 1 if n >= len(sizes) else 0
    rest = n - floor_each * len(sizes)
    quota = {b: rest * s / total for b, s in sizes.items()}
    alloc = {b: floor_each + int(q) for b, q in quota.items()}
    left = n - sum(alloc.values())
    for b in sorted(sizes, key=lambda b: (-(quota[b] - int(quota[b])), b))[:left]:
        alloc[b] += 1
    return alloc


def pick_balanced(cands, k, rng):
    """k distinct candidate indices, the kinds taking turns (in an order the seed
    shuffles), so a file full of literals does not make a sample of off-by-ones."""
    by_kind = {}
    for i, c in enumerate(cands):
        by_kind.setdefault(c["kind"], []).append(i)
    kinds = sorted(by_kind)
    rng.shuffle(kinds)
    for kind in kinds:
        rng.shuffle(by_kind[kind])
    picks = []
    while len(picks) < k and any(by_kind.values()):
        for kind in kinds:
            if by_kind[kind] and len(picks) < k:
                picks.append(by_kind[kind].pop())
    return picks


def draw(root, seed, n_rtl, n_systemc):
    """The sample: a list of mutant dicts (id, block, language, file, line, kind,
    original, mutated), RTL first, each group in block order."""
    blocks = {}
    for block, path, lang in model_files(root):
        lines, cands = file_candidates(root, path, lang)
        b = blocks.setdefault(block, {"lang": lang, "lines": 0, "cands": []})
        b["lines"] += lines
        b["cands"].extend(cands)
    sample = []
    for lang, n in (("verilog", n_rtl), ("cpp", n_systemc)):
        group = {b: v for b, v in blocks.items() if v["lang"] == lang and v["cands"]}
        alloc = allocate({b: v["lines"] for b, v in group.items()}, n)
        for block in sorted(group):
            cands = group[block]["cands"]
            picks = pick_balanced(cands, alloc[block], random.Random("%s:%s" % (seed, block)))
            for p in sorted(picks):
                m = dict(cands[p])
                m["block"] = block
                m["language"] = "rtl" if lang == "verilog" else "systemc"
                m["id"] = mutant_id(m)
                sample.append(m)
    return sample


def apply(root, m):
    """Writes the mutant into the tree at root; returns the file's original text.  Refuses
    (ValueError) when the line no longer holds the original text."""
    path = os.path.join(root, m["file"])
    with open(path) as f:
        text = f.read()
    lines = text.split("\n")
    if m["line"] > len(lines) or lines[m["line"] - 1] != m["original"]:
        raise ValueError("%s:%d no longer reads %r" % (m["file"], m["line"], m["original"]))
    lines[m["line"] - 1] = m["mutated"]
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return text


def describe(m):
    return "%s:%d [%s] %s  ->  %s" % (m["file"], m["line"], m["kind"], m["original"].strip(),
                                      m["mutated"].strip())


def main(argv=None):
    ap = argparse.ArgumentParser(description="Draw a reproducible sample of RTL and SystemC mutants.")
    ap.add_argument("--seed", default="1", help="the sample's seed (any string)")
    ap.add_argument("--rtl", type=int, default=200, help="RTL mutants to draw")
    ap.add_argument("--systemc", type=int, default=100, help="SystemC mutants to draw")
    ap.add_argument("--root", default=ROOT, help="source tree (default: this checkout)")
    ap.add_argument("--json", action="store_true", help="one JSON object per line instead of text")
    ap.add_argument("--stats", action="store_true", help="candidates and code lines per block")
    a = ap.parse_args(argv)
    if a.rtl < 0 or a.systemc < 0:
        ap.error("--rtl and --systemc must not be negative")
    if a.stats:
        for block, path, lang in model_files(a.root):
            lines, cands = file_candidates(a.root, path, lang)
            print("%-28s %5d code lines %5d candidates" % (path, lines, len(cands)))
        return 0
    for m in draw(a.root, a.seed, a.rtl, a.systemc):
        print(json.dumps(m, sort_keys=True) if a.json else "%s %s" % (m["id"], describe(m)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
