#!/usr/bin/env python3
"""Checks the loop bounds printed by `tessera prove` against compiled runs.

For each C program: runs `tessera prove FILE --ints math --format json`; on
YES, takes every loop (not recursion) with a printed `bound` and rewrites the
source so that each entry of that loop evaluates the bound on entry (in
`long long`, identifiers widened first) and counts the entries of the body:

    while (C) S         ->  for (long long c = 0, b = __bc_enter(K, B); (C); ) { __bc_step(K, ++c, b); S }
    for (I; C; N) S     ->  { I; long long c = 0, b = __bc_enter(K, B); for (; C; N) { __bc_step(K, ++c, b); S } }
    do S while (C);     ->  { long long c = 0, b = __bc_enter(K, B); do { __bc_step(K, ++c, b); S } while (C); }

(the counters are locals, so a recursive call inside a loop keeps its own;
the loop is found by the exact line and column the prover prints, a loop
that cannot be rewritten reliably is reported as not instrumented). A loop
with a printed `nest_bound` (the iterations of it and of the loops inside
it) gets one more counter, declared beside its own and stepped in its body
and in the body of every loop inside it; the nest is checked only when the
loop and every loop inside it are instrumented. For a
do-while loop the count is the number of executions of the body. A count
above the bound, or a negative bound, is a violation: the run prints the
first one of each loop and goes on, so that the other loops are still
checked, then exits with status 97. The rewritten program is compiled with
`gcc -O0 -w` and a runtime (nondeterministic values from a seed,
`__VERIFIER_assume`, `__VERIFIER_error`, `abort`, counters' statistics
written to a file), with signed overflow trapping: the prover's answer is for
mathematical integers, so a run that overflows a signed integer is no longer
a run of the program it proved and is counted apart (what it counted before
the overflow still counts). Each binary runs with seeds 0..R-1, each run
limited in wall-clock time (a timeout is not a violation); seed % 8 picks the
range of the values: 0-3 -64..64, 4-5 -8..8, 6-7 -1000..1000 (from 0 for
unsigned types, clipped to the type). After 5 timeouts with one range, the
program's other runs with that range are skipped.

    benchmarks/bounds_check.py [--tessera target/release/tessera] [--jobs 2]
        [--runs 200] [--limit N] [--files F ...] [--out PATH]
        [--timeout 30] [--run-timeout 1] [--bench DIR]

Default programs: the `terminating` tasks of ../shared/bench/c/verdicts.tsv
(paths relative to that folder). The prover binary is copied first, so that a
rebuild during the run does not mix two provers; rewritten sources and
binaries live in a temporary folder, removed at the end. With --out, writes
the Markdown report there (else prints it); a one-line summary goes to
stdout, progress to stderr. Exit status 1 if a violation was found.
"""
import argparse, concurrent.futures, datetime, json, os, re, shlex, shutil, signal
import subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "c"))
FAIL_EXIT = 97
MAX_LOOPS = 4096
TIMEOUTS_BEFORE_GIVING_UP = 5  # per range of values (see range_of)
STOP = threading.Event()  # set on Ctrl-C / SIGTERM: no new prover call or run


def range_of(seed):
    """The range of nondeterministic values a seed picks (as the runtime does)."""
    return {4: "tiny", 5: "tiny", 6: "wide", 7: "wide"}.get(seed % 8, "small")

# ---------------------------------------------------------------- tokenizer

PUNCT = ["...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
         "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##"]
ID_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
NUM_RE = re.compile(r"\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.'])*")


class Tok:
    __slots__ = ("text", "kind", "start", "end", "line", "col")

    def __init__(self, text, kind, start, end, line, col):
        self.text, self.kind, self.start, self.end, self.line, self.col = text, kind, start, end, line, col

    def __repr__(self):
        return f"{self.text}@{self.line}:{self.col}"


class Unsupported(Exception):
    pass


def tokenize(src):
    """Tokens of C source `src`, skipping comments and preprocessor lines.
    Strings and character literals are single tokens."""
    toks = []
    i, n = 0, len(src)
    line, line_start = 1, 0
    at_line_start = True
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            line_start = i + 1
            at_line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "\\" and i + 1 < n and src[i + 1] in "\r\n":
            i += 1
            continue
        if src.startswith("//", i):
            while i < n and src[i] != "\n":
                if src[i] == "\\" and i + 1 < n and src[i + 1] == "\n":
                    i += 1
                    line += 1
                    line_start = i + 1
                i += 1
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            if j < 0:
                raise Unsupported("unterminated comment")
            for k in range(i, j):
                if src[k] == "\n":
                    line += 1
                    line_start = k + 1
            i = j + 2
            continue
        if c == "#" and at_line_start:
            # preprocessor directive, up to an unescaped end of line
            while i < n and src[i] != "\n":
                if src[i] == "\\" and i + 1 < n and src[i + 1] == "\n":
                    i += 1
                    line += 1
                    line_start = i + 1
                elif src.startswith("/*", i):
                    j = src.find("*/", i + 2)
                    if j < 0:
                        raise Unsupported("unterminated comment")
                    for k in range(i, j):
                        if src[k] == "\n":
                            line += 1
                            line_start = k + 1
                    i = j + 1
                i += 1
            continue
        at_line_start = False
        col = i - line_start + 1
        m = re.compile(r"(?:L|u8|u|U)?(['\"])").match(src, i) if c in "'\"LuU" else None
        if m:
            q = m.group(1)
            j = m.end()
            while j < n and src[j] != q:
                if src[j] == "\\":
                    j += 1
                if j < n and src[j] == "\n":
                    raise Unsupported(f"newline in literal at line {line}")
                j += 1
            if j >= n:
                raise Unsupported(f"unterminated literal at line {line}")
            toks.append(Tok(src[i:j + 1], "str" if q == '"' else "chr", i, j + 1, line, col))
            i = j + 1
            continue
        m = ID_RE.match(src, i)
        if m:
            toks.append(Tok(m.group(0), "id", i, m.end(), line, col))
            i = m.end()
            continue
        m = NUM_RE.match(src, i)
        if m:
            toks.append(Tok(m.group(0), "num", i, m.end(), line, col))
            i = m.end()
            continue
        for p in PUNCT:
            if src.startswith(p, i):
                break
        else:
            p = c
        toks.append(Tok(p, "punct", i, i + len(p), line, col))
        i += len(p)
    return toks


def match_brackets(toks):
    pairs = {"(": ")", "[": "]", "{": "}"}
    match, stack = {}, []
    for k, t in enumerate(toks):
        if t.text in pairs:
            stack.append(k)
        elif t.text in (")", "]", "}"):
            if not stack or pairs[toks[stack[-1]].text] != t.text:
                raise Unsupported(f"unbalanced '{t.text}' at line {t.line}")
            o = stack.pop()
            match[o] = k
            match[k] = o
    if stack:
        raise Unsupported(f"unclosed '{toks[stack[-1]].text}' at line {toks[stack[-1]].line}")
    return match


class Parser:
    """Extents of C statements over a token list (enough to find a loop body)."""

    def __init__(self, toks):
        self.toks = toks
        self.match = match_brackets(toks)

    def text(self, k):
        return self.toks[k].text if 0 <= k < len(self.toks) else None

    def paren(self, k):
        """Index of the ')' closing the '(' expected at k."""
        if self.text(k) != "(":
            raise Unsupported(f"expected '(' at line {self.toks[min(k, len(self.toks) - 1)].line}")
        return self.match[k]

    def stmt_end(self, i, depth=0):
        """Index of the last token of the statement starting at token i."""
        if depth > 500:
            raise Unsupported("statements nested too deeply")
        t = self.text(i)
        if t is None:
            raise Unsupported("statement runs past the end of the file")
        if t == "{":
            return self.match[i]
        if t == ";":
            return i
        if t in ("while", "for", "switch"):
            return self.stmt_end(self.paren(i + 1) + 1, depth + 1)
        if t == "if":
            e = self.stmt_end(self.paren(i + 1) + 1, depth + 1)
            if self.text(e + 1) == "else":
                return self.stmt_end(e + 2, depth + 1)
            return e
        if t == "do":
            return self.do_parts(i, depth)[2] + 1
        if t == "case":
            k, q = i + 1, 0
            while True:
                s = self.text(k)
                if s is None or s in (";", "{", "}"):
                    raise Unsupported(f"case label without ':' at line {self.toks[i].line}")
                if s in ("(", "["):
                    k = self.match[k]
                elif s == "?":
                    q += 1
                elif s == ":":
                    if q == 0:
                        break
                    q -= 1
                k += 1
            return self.stmt_end(k + 1, depth + 1)
        if (t == "default" or self.toks[i].kind == "id") and self.text(i + 1) == ":":
            return self.stmt_end(i + 2, depth + 1)
        if t in ("else", "}", ")", "]"):
            raise Unsupported(f"unexpected '{t}' at line {self.toks[i].line}")
        k = i
        while self.text(k) != ";":
            s = self.text(k)
            if s is None:
                raise Unsupported("statement runs past the end of the file")
            if s in ("(", "[", "{"):
                k = self.match[k]
            elif s in (")", "]", "}"):
                raise Unsupported(f"statement at line {self.toks[i].line} has no ';'")
            k += 1
        return k

    def do_parts(self, i, depth=0):
        """For `do` at i: (body start, body end, index of the closing ')' of the condition);
        the ';' follows it."""
        b = i + 1
        e = self.stmt_end(b, depth + 1)
        if self.text(e + 1) != "while":
            raise Unsupported(f"do at line {self.toks[i].line} without while")
        q = self.paren(e + 2)
        if self.text(q + 1) != ";":
            raise Unsupported(f"do-while at line {self.toks[i].line} without ';'")
        return b, e, q


# ---------------------------------------------------------------- rewriting

C_KEYWORDS = set("""auto break case char const continue default do double else enum extern float for goto
if inline int long register restrict return short signed sizeof static struct switch typedef union
unsigned void volatile while _Bool _Complex _Imaginary _Alignof _Generic __typeof__ typeof""".split())


def widen_bound(bound):
    """The bound with each plain identifier of integer type read as long long
    (`__BC_W`, see DECLS), so that it is evaluated without overflow and
    unsigned variables keep their values; pointers and floating values are
    left as they are."""
    toks = tokenize(bound)
    out, pos = [], 0
    for k, t in enumerate(toks):
        if t.kind != "id" or t.text in C_KEYWORDS:
            continue
        prev = toks[k - 1].text if k > 0 else None
        nxt = toks[k + 1].text if k + 1 < len(toks) else None
        if prev in (".", "->") or nxt in ("(", ".", "->", "["):
            continue
        if prev in ("*", "&") and (k < 2 or toks[k - 2].kind == "punct" and toks[k - 2].text not in (")", "]")):
            continue  # unary * or &
        out.append(bound[pos:t.start])
        out.append(f"__BC_W({t.text})")
        pos = t.end
    out.append(bound[pos:])
    return "".join(out)


def exits_inside(parser, tails, kind, b, e):
    """How an entry of a loop (body tokens b..e) can end with an execution of
    the body that does not go back to the condition: "do" (a do-while ends
    after its body), "break", "return", "goto"; a `break` of an inner loop or
    switch does not count."""
    toks = parser.toks
    inner = []
    for k in range(b, e + 1):
        if toks[k].text in ("for", "while", "do", "switch") and k not in tails:
            inner.append((k, parser.stmt_end(k)))
    ways = ["do"] if kind == "do" else []
    for k in range(b, e + 1):
        t = toks[k].text
        if t == "break" and not any(s <= k <= f for s, f in inner) and "break" not in ways:
            ways.append("break")
        elif t in ("return", "goto") and t not in ways:
            ways.append(t)
    return ways


def find_loops(parser):
    """Loop keywords of the file: {token index: kind}; a do-while's `while`
    maps to its `do` in `tails`."""
    kinds, tails = {}, {}
    for k, t in enumerate(parser.toks):
        if t.text == "do":
            try:
                _, e, _ = parser.do_parts(k)
                tails[e + 1] = k
            except Unsupported:
                pass
    for k, t in enumerate(parser.toks):
        if t.text in ("while", "for", "do") and k not in tails:
            kinds[k] = t.text
    return kinds, tails


def locate(parser, kinds, tails, line, col):
    """Token index of the loop keyword at (line, col) (a do-while's `while`
    stands for its `do`), or raise Unsupported: no guess from the line alone."""
    toks = parser.toks
    exact = [k for k, t in enumerate(toks) if t.line == line and t.col == col]
    if not exact:
        raise Unsupported(f"no token starts at {line}:{col}")
    k = exact[0]
    if k in tails:
        return tails[k]
    if k in kinds:
        return k
    if toks[k].kind == "id" and parser.text(k + 1) == ":":
        raise Unsupported(f"{line}:{col} is the label `{toks[k].text}`, not a loop statement (a loop made by goto)")
    raise Unsupported(f"{line}:{col} is `{toks[k].text}`, not a loop keyword")


def rewrite(src, loops):
    """Instruments `src`. loops: list of dicts with line, column, bound and the
    index K. Sets loop['status'] ('instrumented' or the reason it is not),
    loop['kind'], loop['lines'] (source lines of the rewritten header).
    Returns the new source (None when no loop could be instrumented)."""
    try:
        toks = tokenize(src)
        parser = Parser(toks)
        kinds, tails = find_loops(parser)
    except Unsupported as e:
        for lp in loops:
            lp["status"] = f"not instrumented: {e}"
        return None
    edits = []  # (start, rank, end, text); rank 0 closers, 1 openers, 2 replacements
    used = {}
    # Nest bounds (records with "nest"): the counter is declared beside the
    # outer loop's and stepped with it and with every loop inside its body.
    for lp in loops:
        lp.pop("i", None)
    nests = [lp for lp in loops if lp.get("nest")]
    loops = [lp for lp in loops if not lp.get("nest")]
    nest_at, body_of = {}, {}
    for n in nests:
        try:
            i = locate(parser, kinds, tails, n["line"], n["column"])
            nest_at.setdefault(i, []).append(n)
        except Unsupported as ex:
            n["status"] = f"not instrumented: {ex}"
    def nest_decls(i):
        return "".join(f", __bc_c_{n['K']} = 0, __bc_b_{n['K']} = __bc_enter({n['K']}, ({widen_bound(n['bound'])}))"
                       for n in nest_at.get(i, []))
    def nest_steps(i):
        outer = [o for o, (b, e) in body_of.items() if b <= i <= e] + [i]
        return "".join(f"__bc_step({n['K']}, ++__bc_c_{n['K']}, __bc_b_{n['K']}); "
                       for o in outer for n in nest_at.get(o, []))
    # The body of each outer loop first (token range), so that the loops
    # inside it know which nest counters to step.
    for i in nest_at:
        kind = parser.toks[i].text
        try:
            if kind == "do":
                b, e, _ = parser.do_parts(i)
            else:
                b = parser.paren(i + 1) + 1
                e = parser.stmt_end(b)
            body_of[i] = (b, e)
        except Unsupported as ex:
            for n in nest_at[i]:
                n["status"] = f"not instrumented: {ex}"
    nest_at = {i: ns for i, ns in nest_at.items() if i in body_of}
    for lp in loops:
        K = lp["K"]
        try:
            i = locate(parser, kinds, tails, lp["line"], lp["column"])
            if i in used:
                # the same source loop proved twice (a function proved once per
                # call site): one counter checks both when the bounds agree
                first = used[i]
                if first["bound"] != lp["bound"]:
                    raise Unsupported(f"proved twice with different bounds (also `{first['bound_text']}`)")
                lp["K"], lp["kind"], lp["lines"], lp["exits"] = first["K"], first["kind"], first["lines"], first["exits"]
                lp["status"] = "instrumented"
                lp["duplicate"] = True
                continue
            bound = widen_bound(lp["bound"])
            kind = toks[i].text
            decl = f"long long __bc_c_{K} = 0, __bc_b_{K} = __bc_enter({K}, ({bound})){nest_decls(i)}"
            step = f"{{ __bc_step({K}, ++__bc_c_{K}, __bc_b_{K}); {nest_steps(i)}"
            if kind == "while":
                q = parser.paren(i + 1)
                b = q + 1
                e = parser.stmt_end(b)
                mine = [(toks[i].start, 2, toks[q].end, f"for ({decl}; {src[toks[i + 1].start:toks[q].end]}; )"),
                        (toks[b].start, 1, toks[b].start, step),
                        (toks[e].end, 0, toks[e].end, " }")]
                header = (toks[i].line, toks[q].line)
            elif kind == "for":
                p = i + 1
                q = parser.paren(p)
                semis, k = [], p + 1
                while k < q:
                    if toks[k].text in ("(", "[", "{"):
                        k = parser.match[k]
                    elif toks[k].text == ";":
                        semis.append(k)
                    k += 1
                if len(semis) != 2:
                    raise Unsupported(f"for header with {len(semis)} ';'")
                s1 = semis[0]
                init = src[toks[p + 1].start:toks[s1].end] + " " if s1 > p + 1 else ""
                b = q + 1
                e = parser.stmt_end(b)
                mine = [(toks[i].start, 2, toks[q].end, f"{{ {init}{decl}; for (;{src[toks[s1].end:toks[q].end]}"),
                        (toks[b].start, 1, toks[b].start, step),
                        (toks[e].end, 0, toks[e].end, " } }")]
                header = (toks[i].line, toks[q].line)
            else:  # do
                b, e, q = parser.do_parts(i)
                mine = [(toks[i].start, 2, toks[i].end, f"{{ {decl}; do {step}"),
                        (toks[e].end, 0, toks[e].end, " }"),
                        (toks[q + 1].end, 0, toks[q + 1].end, " }")]
                header = (toks[i].line, toks[i].line)
            exits = exits_inside(parser, tails, kind, b, e)
        except Unsupported as ex:
            lp["status"] = f"not instrumented: {ex}"
            continue
        used[i] = lp
        lp["i"] = i
        lp["kind"] = kind
        lp["exits"] = exits
        lp["lines"] = header
        lp["status"] = "instrumented"
        edits.extend(mine)
    # A nest is checked when its loop and every loop of the JSON inside its
    # body are (a loop left out would make its count too small).
    for i, ns in nest_at.items():
        b, e = body_of[i]
        inside = [lp for lp in loops if lp.get("i") is not None and b <= lp["i"] <= e]
        outer = [lp for lp in loops if lp.get("i") == i]
        missing = [lp for lp in loops if lp.get("i") is None and lp.get("status") != "instrumented"]
        ok = outer and all(lp["status"] == "instrumented" for lp in outer + inside) and not missing
        for n in ns:
            n["kind"] = outer[0]["kind"] if outer else None
            n["exits"] = outer[0].get("exits") if outer else None
            n["lines"] = outer[0].get("lines") if outer else None
            n["status"] = "instrumented" if ok else "not instrumented: a loop of the nest is not"
    if not edits:
        return None
    edits.sort(key=lambda x: (x[0], x[1]))
    out, pos = [], 0
    for start, _, end, text in edits:
        if start < pos:
            # cannot happen for well-formed nesting; give up on the whole file rather than guess
            for lp in loops:
                if lp.get("status") == "instrumented":
                    lp["status"] = "not instrumented: overlapping rewrites"
            return None
        out.append(src[pos:start])
        out.append(text)
        pos = end
    out.append(src[pos:])
    return "".join(out)


# ---------------------------------------------------------------- runtime

DECLS = r"""
#define __BC_W(x) __builtin_choose_expr(__builtin_classify_type(x) == 5 || __builtin_classify_type(x) == 8, (x), (long long)(x))
long long __bc_enter(int, long long);
void __bc_step(int, long long, long long);
"""

RUNTIME = r"""
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BC_MAX %(max)d
#define BC_FAIL_EXIT %(fail)d
static long long bc_entries[BC_MAX], bc_iters[BC_MAX], bc_maxcnt[BC_MAX], bc_maxbound[BC_MAX],
    bc_minslack[BC_MAX], bc_hits[BC_MAX];
static int bc_used;
static unsigned long long bc_state;
static long long bc_lo = -64, bc_hi = 64, bc_uhi = 64;
static volatile sig_atomic_t bc_dumped;
static int bc_fd = 2; /* the report: argv[2] when given, else stderr */

static void bc_dump(void) {
    char buf[256];
    int k;
    if (bc_dumped) return;
    bc_dumped = 1;
    for (k = 0; k < bc_used; k++) {
        if (!bc_entries[k]) continue;
        int n = snprintf(buf, sizeof buf, "__BC_STAT %%d %%lld %%lld %%lld %%lld %%lld %%lld\n", k, bc_entries[k],
                         bc_iters[k], bc_maxcnt[k], bc_maxbound[k], bc_minslack[k], bc_hits[k]);
        if (write(bc_fd, buf, n) < 0) return;
    }
}

static char bc_violated[BC_MAX];
static volatile sig_atomic_t bc_any_violation;

/* The first violation of loop k in this run: printed at once; the run goes
   on (so that the other loops are still checked) and exits with BC_FAIL_EXIT. */
static void bc_fail(int k, long long c, long long b) {
    char buf[128];
    int n;
    if (bc_violated[k]) return;
    bc_violated[k] = 1;
    bc_any_violation = 1;
    n = snprintf(buf, sizeof buf, "__BC_FAIL %%d %%lld %%lld\n", k, c, b);
    if (write(bc_fd, buf, n) < 0) {}
}

static void bc_at_exit(void) {
    bc_dump();
    if (bc_any_violation) _exit(BC_FAIL_EXIT);
}

long long __bc_enter(int k, long long b) {
    if (k >= bc_used) bc_used = k + 1;
    bc_entries[k]++;
    if (bc_entries[k] == 1 || b > bc_maxbound[k]) bc_maxbound[k] = b;
    if (b < 0) bc_fail(k, 0, b);
    if (b == 0) bc_hits[k]++;
    return b;
}

void __bc_step(int k, long long c, long long b) {
    if (c > b) bc_fail(k, c, b);
    if (c > bc_maxcnt[k]) bc_maxcnt[k] = c;
    if (bc_iters[k]++ == 0 || b - c < bc_minslack[k]) bc_minslack[k] = b - c;
    if (c == b) bc_hits[k]++;
}

static void bc_on_signal(int sig) {
    bc_dump();
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor)) static void bc_init(int argc, char **argv) {
    static char altstack[65536];
    stack_t ss;
    struct sigaction sa;
    int sigs[] = {SIGTERM, SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGXCPU}, i;
    unsigned long long seed = argc > 1 ? strtoull(argv[1], 0, 10) : 0;
    if (argc > 2) {
        int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) bc_fd = fd;
    }
    switch (seed %% 8) {
    case 4: case 5: bc_lo = -8; bc_hi = 8; bc_uhi = 8; break;
    case 6: case 7: bc_lo = -1000; bc_hi = 1000; bc_uhi = 1000; break;
    default: break;
    }
    bc_state = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    sigaltstack(&ss, 0);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = bc_on_signal;
    sa.sa_flags = SA_ONSTACK;
    for (i = 0; i < (int)(sizeof sigs / sizeof sigs[0]); i++) sigaction(sigs[i], &sa, 0);
    atexit(bc_at_exit);
}

static unsigned long long bc_next(void) {
    unsigned long long z = (bc_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static long long bc_range(long long lo, long long hi) {
    return lo + (long long)(bc_next() %% (unsigned long long)(hi - lo + 1));
}
static long long bc_clip(long long lo, long long hi) {
    long long a = bc_lo < lo ? lo : bc_lo, b = bc_hi > hi ? hi : bc_hi;
    return bc_range(a, b);
}
static unsigned long long bc_uclip(unsigned long long hi) {
    return (unsigned long long)bc_range(0, (unsigned long long)bc_uhi > hi ? (long long)hi : bc_uhi);
}

#define W __attribute__((weak))
W int __VERIFIER_nondet_int(void) { return (int)bc_clip(-2147483647 - 1, 2147483647); }
W unsigned int __VERIFIER_nondet_uint(void) { return (unsigned)bc_uclip(4294967295ULL); }
W unsigned int __VERIFIER_nondet_unsigned(void) { return (unsigned)bc_uclip(4294967295ULL); }
W long __VERIFIER_nondet_long(void) { return (long)bc_clip(-9223372036854775807LL - 1, 9223372036854775807LL); }
W unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)bc_uclip(~0ULL); }
W long long __VERIFIER_nondet_longlong(void) { return bc_clip(-9223372036854775807LL - 1, 9223372036854775807LL); }
W unsigned long long __VERIFIER_nondet_ulonglong(void) { return bc_uclip(~0ULL); }
W short __VERIFIER_nondet_short(void) { return (short)bc_clip(-32768, 32767); }
W unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)bc_uclip(65535); }
W char __VERIFIER_nondet_char(void) { return (char)bc_clip(-128, 127); }
W signed char __VERIFIER_nondet_schar(void) { return (signed char)bc_clip(-128, 127); }
W unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)bc_uclip(255); }
W _Bool __VERIFIER_nondet_bool(void) { return (_Bool)(bc_next() & 1); }
W _Bool __VERIFIER_nondet__Bool(void) { return (_Bool)(bc_next() & 1); }
W unsigned long __VERIFIER_nondet_size_t(void) { return (unsigned long)bc_uclip(~0ULL); }
W long __VERIFIER_nondet_loff_t(void) { return (long)bc_clip(-9223372036854775807LL - 1, 9223372036854775807LL); }
W float __VERIFIER_nondet_float(void) { return (float)bc_clip(-1000000, 1000000) / 4.0f; }
W double __VERIFIER_nondet_double(void) { return (double)bc_clip(-1000000, 1000000) / 4.0; }
W void *__VERIFIER_nondet_pointer(void) { return 0; }
W void __VERIFIER_assume(int c) { if (!c) exit(0); }
W void __VERIFIER_error(void) { exit(0); }
W void reach_error(void) { exit(0); }
W void abort(void) { exit(0); }
"""


# ---------------------------------------------------------------- per program

def run_tessera(tessera, path, timeout):
    try:
        p = subprocess.run([tessera, "prove", path, "--ints", "math", "--format", "json", "--timeout", str(timeout)],
                           capture_output=True, text=True, timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        return None, "prover did not return"
    try:
        return json.loads(p.stdout), None
    except ValueError:
        return None, (p.stderr.strip().splitlines() or ["no JSON output"])[-1][:200]


GCC_ERR = re.compile(r"^([^:\n]*):(\d+):(?:\d+:)? (?:fatal )?error: (.*)$", re.M)
GCC_MACRO = re.compile(r"^([^:\n]*):(\d+):(?:\d+:)? note: in expansion of macro '__BC_W'", re.M)


def compile_program(workdir, src_name, src, loops, rt_obj, decls):
    """Compiles `src`. Returns the binary's path; or "retry" after marking the
    loops whose rewritten header a gcc error points at as not instrumented (the
    caller rewrites without them); or None when the errors point elsewhere."""
    cpath = os.path.join(workdir, src_name)
    with open(cpath, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(src)
    exe = os.path.join(workdir, "prog")
    p = subprocess.run(["gcc", "-O0", "-w", "-fsanitize=signed-integer-overflow",
                        "-fsanitize-undefined-trap-on-error", "-include", decls, cpath, rt_obj,
                        "-o", exe, "-lm"], capture_output=True, text=True, errors="replace")
    if p.returncode == 0:
        return exe
    errors = [(int(m.group(2)), m.group(3)) for m in GCC_ERR.finditer(p.stderr)
              if os.path.basename(m.group(1)) == src_name]
    # an error inside __BC_W (e.g. a struct in a bound) is reported in the
    # declarations file, with the bound's line in a note
    first = next((m.group(3) for m in GCC_ERR.finditer(p.stderr)), "?")
    errors += [(int(m.group(2)), first) for m in GCC_MACRO.finditer(p.stderr)
               if os.path.basename(m.group(1)) == src_name]
    live = [lp for lp in loops if lp["status"] == "instrumented"]
    blamed = [lp for lp in live if any(lp["lines"][0] <= ln <= lp["lines"][1] for ln, _ in errors)]
    if not blamed:
        msg = errors[0][1] if errors else (p.stderr.strip().splitlines() or ["?"])[-1]
        for lp in live:
            lp["status"] = f"not instrumented: program does not compile ({msg[:120]})"
        return None
    for lp in blamed:
        msg = next(m for ln, m in errors if lp["lines"][0] <= ln <= lp["lines"][1])
        lp["status"] = f"not instrumented: bound does not compile ({msg[:120]})"
    return "retry"


def run_binary(exe, seed, limit):
    """One run: returns (outcome, {loop: stats}, [(loop, count, bound) of each violated loop])."""
    report = exe + ".report"
    if os.path.exists(report):
        os.unlink(report)
    with open(report, "a+b") as err:
        p = subprocess.Popen([exe, str(seed), report], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
        timed_out = False
        try:
            p.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                p.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
        err.seek(0)
        stats, fails = {}, []
        for raw in err:
            if raw.startswith(b"__BC_STAT "):
                f = raw.split()
                stats[int(f[1])] = tuple(int(x) for x in f[2:8])
            elif raw.startswith(b"__BC_FAIL "):
                f = raw.split()
                fails.append((int(f[1]), int(f[2]), int(f[3])))
    rc = p.returncode
    if fails:
        outcome = "violation"
    elif timed_out:
        outcome = "timeout"
    elif rc == -signal.SIGILL:
        outcome = "overflow"
    elif rc is not None and rc < 0:
        outcome = "crash"
    else:
        outcome = "ok"
    return outcome, stats, fails


def check_program(path, display, args, rt_obj, decls, tmproot):
    res = {"file": display, "answer": None, "error": None, "loops": [], "nests": [], "recursions": 0,
           "outcomes": {}, "violations": [], "runs": 0, "skipped_runs": 0}
    js, err = run_tessera(args.tessera, path, args.timeout)
    if STOP.is_set():
        res["answer"], res["error"] = "ERROR", "interrupted"
        return res
    if js is None:
        res["answer"], res["error"] = "ERROR", err
        return res
    res["answer"] = js.get("answer")
    if res["answer"] != "YES":
        return res
    # The whole run's bound (over values fixed when the first loop starts):
    # reported with its class, not instrumented.
    res["program"] = js.get("program_bound")
    loops = []
    for lp in js.get("loops") or []:
        if lp.get("recursion") is not None:
            res["recursions"] += 1
            continue
        rec = {"line": lp.get("line"), "column": lp.get("column"), "bound": lp.get("bound"),
               "bound_text": lp.get("bound_text"), "ranking": lp.get("ranking_function"),
               "strategy": lp.get("strategy"), "check": lp.get("check"), "kind": None, "status": None, "stats": None}
        if rec["bound"] is None:
            rec["status"] = "no bound"
        elif rec["line"] is None or rec["column"] is None:
            rec["status"] = "not instrumented: no position"
        loops.append(rec)
        if lp.get("nest_bound") is not None:
            # The bound of the loop and the loops inside it: one more counter,
            # declared with the loop's and stepped in every loop inside it.
            res["nests"].append({"line": rec["line"], "column": rec["column"], "bound": lp.get("nest_bound"),
                                 "bound_text": lp.get("nest_bound_text"), "ranking": rec["ranking"],
                                 "strategy": "nest", "check": "nest bound", "kind": None, "status": None,
                                 "stats": None, "nest": True})
    loops.sort(key=lambda r: (r["line"] or 0, r["column"] or 0))
    res["loops"] = loops
    todo = [lp for lp in loops if lp["status"] is None] + res["nests"]
    for K, lp in enumerate(todo):
        lp["K"] = K
    if not todo:
        return res
    if len(todo) > MAX_LOOPS:
        for lp in todo:
            lp["status"] = "not instrumented: too many loops"
        return res
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        orig = f.read()
    workdir = tempfile.mkdtemp(prefix="prog", dir=tmproot)
    try:
        exe = None
        for _attempt in range(len(todo) + 1):  # each retry drops at least one loop
            live = [lp for lp in todo if lp["status"] in (None, "instrumented")]
            for lp in live:
                lp["status"] = None
                lp.pop("duplicate", None)
            src = rewrite(orig, live)
            if src is None:
                break
            exe = compile_program(workdir, "bc_" + os.path.basename(path), src, todo, rt_obj, decls)
            if exe != "retry":
                break
            exe = None
        if exe is None:
            for lp in todo:
                if lp["status"] == "instrumented":  # rewritten, but never compiled
                    lp["status"] = "not instrumented: the rewritten program does not compile"
            return res
        inst = {lp["K"]: lp for lp in todo if lp["status"] == "instrumented" and not lp.get("duplicate")}
        agg = {}
        timeouts = {}
        for seed in range(args.runs):
            if STOP.is_set():
                break
            if timeouts.get(range_of(seed), 0) >= TIMEOUTS_BEFORE_GIVING_UP:
                res["skipped_runs"] += 1
                continue
            outcome, stats, fails = run_binary(exe, seed, args.run_timeout)
            res["runs"] += 1
            res["outcomes"][outcome] = res["outcomes"].get(outcome, 0) + 1
            if outcome == "timeout":
                timeouts[range_of(seed)] = timeouts.get(range_of(seed), 0) + 1
            for k, (ent, its, mx, mb, ms, hits) in stats.items():
                a = agg.get(k)
                if a is None:
                    agg[k] = [ent, its, mx, mb, ms if its else None, hits]
                else:
                    a[0] += ent
                    a[1] += its
                    a[2] = max(a[2], mx)
                    a[3] = max(a[3], mb)
                    if its:
                        a[4] = ms if a[4] is None else min(a[4], ms)
                    a[5] += hits
            for k, c, b in fails:
                lp = inst.get(k)
                res["violations"].append({"line": lp["line"] if lp else None, "column": lp["column"] if lp else None,
                                          "kind": lp["kind"] if lp else None, "seed": seed, "count": c, "bound": b,
                                          "bound_text": lp["bound_text"] if lp else None,
                                          "bound_c": lp["bound"] if lp else None,
                                          "exits": lp.get("exits") if lp else None,
                                          "nest": bool(lp and lp.get("nest")),
                                          "how": f"{lp['strategy']}, {lp['check']}" if lp else None})
        for lp in todo:
            if lp["status"] != "instrumented":
                continue
            a = agg.get(lp["K"])
            lp["stats"] = {"entries": a[0], "iterations": a[1], "max_count": a[2], "max_bound": a[3],
                           "min_slack": a[4], "at_bound": a[5]} if a else None
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return res


# ---------------------------------------------------------------- report

def default_programs(bench):
    out = []
    with open(os.path.join(bench, "verdicts.tsv")) as f:
        next(f)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) > 1 and cols[1] == "terminating":
                out.append((os.path.join(bench, cols[0]), cols[0]))
    return out


def int_only_programs(bench):
    """The relative paths marked `int_only` in the folder's details.tsv (none without one)."""
    path = os.path.join(bench, "details.tsv")
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        head = next(f).rstrip("\n").split("\t")
        col = head.index("int_only") if "int_only" in head else None
        if col is None:
            return set()
        return {c[0] for c in (line.rstrip("\n").split("\t") for line in f) if len(c) > col and c[col] == "1"}


def md_escape(s):
    return str(s).replace("|", "\\|")


def summarize(results, args, command, started, elapsed, prover):
    yes = [r for r in results if r["answer"] == "YES"]
    loops = [(r, lp) for r in yes for lp in r["loops"]]
    bounded = [(r, lp) for r, lp in loops if lp["bound"] is not None]
    inst = [(r, lp) for r, lp in loops if lp["status"] == "instrumented"]
    not_inst = [(r, lp) for r, lp in loops if lp["status"].startswith("not instrumented")]
    no_bound = [(r, lp) for r, lp in loops if lp["bound"] is None]
    runs = sum(r["runs"] for r in results)
    outcomes = {}
    for r in results:
        for k, v in r["outcomes"].items():
            outcomes[k] = outcomes.get(k, 0) + v
    viols = [(r, v) for r in results for v in r["violations"]]
    answers = {}
    for r in results:
        answers[r["answer"]] = answers.get(r["answer"], 0) + 1
    share = 100.0 * len(bounded) / len(loops) if loops else 0.0
    exercised = [(r, lp) for r, lp in inst if lp["stats"] and lp["stats"]["entries"] and not lp.get("duplicate")]
    tight = [(r, lp) for r, lp in exercised if lp["stats"]["iterations"] and lp["stats"]["min_slack"] == 0]
    L = []
    L.append("# Loop bounds against compiled runs")
    L.append("")
    L.append(f"{started:%Y-%m-%d %H:%M} UTC, {elapsed / 60:.1f} min. Command: `{command}`")
    L.append("")
    L.append(f"Prover: {prover}. Machine: {os.cpu_count()} cores (shared with other work while this ran).")
    L.append("")
    L.append("Each loop of a YES answer with a printed bound is rewritten to count the entries of its body per "
             "entry of the loop and to compare that count with the bound evaluated on entry (in `long long`); the "
             "program is compiled with `gcc -O0 -w` (signed overflow trapping: such runs leave math semantics and "
             "are counted apart) and run with seeds 0..R-1 (values of `__VERIFIER_nondet_*`: seed % 8 = 0-3 "
             "in -64..64, 4-5 in -8..8, 6-7 in -1000..1000; unsigned types from 0), each run limited to "
             f"{args.run_timeout:g} s wall-clock; after {TIMEOUTS_BEFORE_GIVING_UP} timed-out runs with one range "
             "of values, a program's remaining runs with that range are skipped. For a do-while loop the count is the number of executions of the body.")
    L.append("")
    L.append("| figure | value |")
    L.append("|---|---:|")
    L.append(f"| programs run | {len(results)} |")
    L.append(f"| answers | " + ", ".join(f"{k} {v}" for k, v in sorted(answers.items(), key=lambda x: str(x[0]))) + " |")
    L.append(f"| YES answers | {len(yes)} |")
    L.append(f"| loops proved (recursions excluded) | {len(loops)} |")
    L.append(f"| recursions proved (not checked) | {sum(r['recursions'] for r in yes)} |")
    L.append(f"| loops with a printed bound | {len(bounded)} ({share:.1f} %) |")
    L.append(f"| loops instrumented | {len(inst)} |")
    L.append(f"| loops not instrumented | {len(not_inst)} |")
    L.append(f"| instrumented loops entered in some run | {len(exercised)} |")
    L.append(f"| ... of which some entry reached the bound exactly | {len(tight)} |")
    ends = [(r, lp) for r, lp in inst if lp.get("exits") and not lp.get("duplicate")]
    vloops = {(r["file"], v["line"], v["column"]): v for r, v in viols if not v.get("nest")}
    L.append(f"| instrumented loops that can end inside the body (do-while, break, return, goto) | {len(ends)} |")
    L.append(f"| ... of which violated | {sum((r['file'], lp['line'], lp['column']) in vloops for r, lp in ends)} |")
    L.append(f"| other instrumented loops violated | "
             f"{sum(not v['exits'] for v in vloops.values())} |")
    L.append(f"| runs | {runs} |")
    L.append("| run outcomes | " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())) + " |")
    L.append(f"| runs skipped (after {TIMEOUTS_BEFORE_GIVING_UP} timeouts with the same range) | "
             f"{sum(r['skipped_runs'] for r in results)} |")
    nests = [(r, n) for r in yes for n in r.get("nests", [])]
    ninst = [(r, n) for r, n in nests if n["status"] == "instrumented"]
    nentered = [(r, n) for r, n in ninst if n["stats"] and n["stats"]["entries"]]
    L.append(f"| loop nests with a printed nest bound (`nest_bound`) | {len(nests)} |")
    L.append(f"| ... instrumented (the loop and every loop inside it) | {len(ninst)} |")
    L.append(f"| ... entered in some run | {len(nentered)} |")
    L.append(f"| ... violated | {sum(1 for r, v in viols if v.get('nest'))} |")
    L.append(f"| **bound violations** (loops and nests) | **{len(viols)}** |")
    with_loops = [r for r in yes if r["loops"] or r["recursions"]]
    whole = [r for r in with_loops if r.get("program")]
    classes = {}
    for r in whole:
        c = r["program"].get("complexity")
        classes[c] = classes.get(c, 0) + 1
    L.append(f"| YES programs with loops that get a bound for the whole run (`program_bound`, not instrumented) | "
             f"{len(whole)} of {len(with_loops)} |")
    L.append("| ... their classes | " + ", ".join(f"{k} {v}" for k, v in sorted(classes.items(), key=lambda x: str(x[0]))) + " |")
    ints = int_only_programs(args.bench)
    if ints:
        il = [(r, lp) for r, lp in loops if r["file"] in ints]
        ib = [(r, lp) for r, lp in il if lp["bound"] is not None]
        pct = f" ({100.0 * len(ib) / len(il):.1f} %)" if il else ""
        L.append(f"| integer programs (`int_only` in details.tsv): loops proved, with a printed bound | "
                 f"{len(il)}, {len(ib)}{pct} |")
    L.append("")
    cats = {}
    for r in results:
        c = cats.setdefault(os.path.dirname(r["file"]) or ".", [0, 0, 0, 0, 0, 0])
        c[0] += 1
        if r["answer"] == "YES":
            c[1] += 1
            c[2] += len(r["loops"])
            c[3] += sum(lp["bound"] is not None for lp in r["loops"])
            c[4] += sum(lp["status"] == "instrumented" for lp in r["loops"])
        c[5] += len(r["violations"])
    if len(cats) > 1:
        L.append("| folder | programs | YES | loops | with a bound | instrumented | violations |")
        L.append("|---|---:|---:|---:|---:|---:|---:|")
        for k in sorted(cats):
            c = cats[k]
            pct = f" ({100.0 * c[3] / c[2]:.0f} %)" if c[2] else ""
            L.append(f"| {k} | {c[0]} | {c[1]} | {c[2]} | {c[3]}{pct} | {c[4]} | {c[5]} |")
        L.append("")
    L.append("## Violations")
    L.append("")
    if viols:
        groups = {}
        for r, v in viols:
            groups.setdefault((r["file"], v["line"], v["column"], v.get("nest")), (r, []))[1].append(v)
        L.append(f"{len(viols)} violating (run, loop) pairs in {len(groups)} loops. Count: entries of the body in "
                 "one entry of the loop (the first entry that went over the bound in that run); excess: count "
                 "minus the bound on entry.")
        L.append("")
        L.append("| file:line:column | loop | ends inside the body by | bound (C) | proof (strategy, check) | "
                 "runs violating | max excess | first seeds: count > bound |")
        L.append("|---|---|---|---|---|---:|---:|---|")
        for (f, line, col, _), (r, vs) in groups.items():
            ex = "; ".join(f"{v['seed']}: {v['count']} > {v['bound']}" for v in vs[:5])
            L.append(f"| {f}:{line}:{col} | {vs[0]['kind']} | {', '.join(vs[0]['exits'] or []) or '-'} | "
                     f"`{md_escape(vs[0]['bound_c'])}` | {md_escape(vs[0]['how'])} | {len(vs)} of {r['runs']} | "
                     f"{max(v['count'] - v['bound'] for v in vs)} | {ex} |")
        L.append("")
        L.append("<details><summary>Every violation</summary>")
        L.append("")
        L.append("| file | line | loop | seed | count | bound on entry |")
        L.append("|---|---:|---|---:|---:|---:|")
        for r, v in viols:
            L.append(f"| {r['file']} | {v['line']} | {v['kind']} | {v['seed']} | {v['count']} | {v['bound']} |")
        L.append("")
        L.append("</details>")
    else:
        L.append("None.")
    L.append("")
    L.append("## Loops without a bound")
    L.append("")
    if no_bound:
        L.append("| file:line | ranking function |")
        L.append("|---|---|")
        for r, lp in no_bound:
            L.append(f"| {r['file']}:{lp['line']} | `{md_escape(lp['ranking'])}` |")
    else:
        L.append("None.")
    L.append("")
    L.append("## Loops not instrumented")
    L.append("")
    if not_inst:
        L.append("| file:line | bound | reason |")
        L.append("|---|---|---|")
        for r, lp in not_inst:
            L.append(f"| {r['file']}:{lp['line']} | `{md_escape(lp['bound_text'])}` | "
                     f"{md_escape(lp['status'][len('not instrumented: '):])} |")
    else:
        L.append("None.")
    L.append("")
    odd = [r for r in results if any(k not in ("ok", "violation") for k in r["outcomes"]) or r["skipped_runs"]]
    if odd:
        L.append("## Runs that did not end normally")
        L.append("")
        L.append("Not violations: a timed-out run is cut off (its counts so far are kept), an overflow run trapped "
                 "on a signed overflow (its counts up to there are kept), a crash is any other signal.")
        L.append("")
        L.append("| file | run outcomes | runs skipped |")
        L.append("|---|---|---:|")
        for r in odd:
            L.append(f"| {r['file']} | " + ", ".join(f"{k} {v}" for k, v in sorted(r["outcomes"].items())) +
                     f" | {r['skipped_runs']} |")
        L.append("")
    errs = [r for r in results if r["answer"] == "ERROR"]
    if errs:
        L.append("## Prover errors")
        L.append("")
        for r in errs:
            L.append(f"- {r['file']}: {md_escape(r['error'])}")
        L.append("")
    L.append("## Instrumented loops")
    L.append("")
    L.append("Per loop over all runs: entries of the loop, the largest count of body entries in one entry, the "
             "largest bound on entry, the smallest bound minus count over entries that ran the body at least "
             "once, and the entries whose count equalled the bound.")
    L.append("")
    dups = sum(1 for r, lp in inst if lp.get("duplicate"))
    if dups:
        L.append(f"{dups} instrumented loop(s) of the JSON repeat a loop of the same program with the same bound (a "
                 "function proved once per call site); they share the first one's counter and row.")
        L.append("")
    L.append("| file:line | loop | ends inside by | bound | entries | max count | max bound | min slack | at bound |")
    L.append("|---|---|---|---|---:|---:|---:|---:|---:|")
    for r, lp in inst:
        if lp.get("duplicate"):
            continue
        s = lp["stats"]
        head = f"| {r['file']}:{lp['line']} | {lp['kind']} | {', '.join(lp.get('exits') or []) or '-'} | " \
               f"`{md_escape(lp['bound_text'])}` |"
        if s:
            ms = "-" if s["min_slack"] is None else s["min_slack"]
            L.append(f"{head} {s['entries']} | {s['max_count']} | {s['max_bound']} | {ms} | {s['at_bound']} |")
        else:
            L.append(f"{head} 0 | - | - | - | - |")
    L.append("")
    if nests:
        L.append("## Loop nests")
        L.append("")
        L.append("Per nest (`nest_bound`: the iterations of the loop and every loop inside it in one entry of the "
                 "loop), over all runs: one counter declared with the loop's, stepped in its body and in the body "
                 "of every loop inside it.")
        L.append("")
        L.append("| file:line | nest bound | status | entries | max count | max bound | min slack |")
        L.append("|---|---|---|---:|---:|---:|---:|")
        for r, n in nests:
            st = n["stats"]
            cells = (f"{st['entries']} | {st['max_count']} | {st['max_bound']} | "
                     f"{'-' if st['min_slack'] is None else st['min_slack']}") if st else "0 | - | - | -"
            L.append(f"| {r['file']}:{n['line']} | `{md_escape(n['bound_text'])}` | {md_escape(n['status'])} | {cells} |")
        L.append("")
    summary = {"programs": len(results), "yes": len(yes), "loops": len(loops), "bounded": len(bounded), "nests": len(nests),
               "share": share, "instrumented": len(inst), "runs": runs, "violations": len(viols)}
    return "\n".join(L), summary


def describe_prover(tessera):
    try:
        version = subprocess.run([tessera, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        version = "?"
    built = datetime.datetime.fromtimestamp(os.path.getmtime(tessera), datetime.timezone.utc)
    text = f"`{version or '?'}`, binary built {built:%Y-%m-%d %H:%M} UTC"
    if os.path.commonpath([os.path.abspath(tessera), ROOT]) == ROOT:
        try:
            head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %cd", "--date=format:%Y-%m-%d %H:%M"],
                                  capture_output=True, text=True).stdout.strip()
            dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "src"], capture_output=True,
                                   text=True).stdout.strip()
            text += f"; repository at commit {head}" + (" with uncommitted changes in src/" if dirty else "")
        except OSError:
            pass
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tessera", default="target/release/tessera")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--files", nargs="+")
    ap.add_argument("--out")
    ap.add_argument("--timeout", type=int, default=30, help="prover time limit per program (s)")
    ap.add_argument("--run-timeout", type=float, default=1.0, help="wall-clock limit per run (s)")
    ap.add_argument("--bench", default=BENCH, help="folder of verdicts.tsv (default ../shared/bench/c)")
    args = ap.parse_args()
    command = "benchmarks/bounds_check.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    if not os.path.isabs(args.tessera):
        args.tessera = os.path.join(ROOT, args.tessera)
    if not os.access(args.tessera, os.X_OK):
        sys.exit(f"bounds_check: no prover at {args.tessera}")
    if args.files:
        progs = [(os.path.abspath(f), f) for f in args.files]
    else:
        progs = [(p, d) for p, d in default_programs(args.bench)]
    if args.limit is not None:
        progs = progs[:args.limit]
    started = datetime.datetime.now(datetime.timezone.utc)
    t0 = time.time()
    tmproot = tempfile.mkdtemp(prefix="bounds_check.")
    try:
        prover = describe_prover(args.tessera)
        # a private copy, so that a rebuild during the run does not mix two provers
        copy = os.path.join(tmproot, "tessera")
        shutil.copy2(args.tessera, copy)
        args.tessera = copy
        decls = os.path.join(tmproot, "bc_decls.h")
        with open(decls, "w") as f:
            f.write(DECLS)
        rt_c = os.path.join(tmproot, "bc_runtime.c")
        with open(rt_c, "w") as f:
            f.write(RUNTIME % {"max": MAX_LOOPS, "fail": FAIL_EXIT})
        rt_obj = os.path.join(tmproot, "bc_runtime.o")
        p = subprocess.run(["gcc", "-O0", "-w", "-c", rt_c, "-o", rt_obj], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("bounds_check: runtime does not compile:\n" + p.stderr)
        results = [None] * len(progs)
        lock = threading.Lock()
        done = [0]

        def work(i):
            if STOP.is_set():
                return
            path, display = progs[i]
            try:
                r = check_program(path, display, args, rt_obj, decls, tmproot)
            except Exception as e:  # a bug here must not hide the other programs
                r = {"file": display, "answer": "ERROR", "error": f"bounds_check: {type(e).__name__}: {e}",
                     "loops": [], "recursions": 0, "outcomes": {}, "violations": [], "runs": 0, "skipped_runs": 0}
            results[i] = r
            with lock:
                done[0] += 1
                inst = sum(lp["status"] == "instrumented" for lp in r["loops"])
                print(f"[{done[0]}/{len(progs)}] {display}: {r['answer']}, {len(r['loops'])} loops, {inst} instrumented, "
                      f"{r['runs']} runs, {len(r['violations'])} violations", file=sys.stderr, flush=True)

        def interrupt(signum, frame):
            raise KeyboardInterrupt
        signal.signal(signal.SIGTERM, interrupt)
        ex = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
        futures = [ex.submit(work, i) for i in range(len(progs))]
        try:
            for f in futures:
                f.result()
        except KeyboardInterrupt:
            STOP.set()
            ex.shutdown(wait=False, cancel_futures=True)
            print("bounds_check: interrupted (the running prover calls end by their time limit)", file=sys.stderr)
            return 130
        ex.shutdown()
    finally:
        shutil.rmtree(tmproot, ignore_errors=True)
    text, s = summarize(results, args, command, started, time.time() - t0, prover)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)) or ".", exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)
    print(f"{s['programs']} programs, {s['yes']} YES, {s['loops']} loops proved, {s['bounded']} with a bound "
          f"({s['share']:.1f} %), {s['instrumented']} instrumented, {s['runs']} runs, {s['violations']} violations")
    if not args.out:
        print(text)
    return 1 if s["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
