/* Oracle driver for the differential test: shares nothing with Tessera.
 * Linked with a program whose `main` was renamed `__dt_user_main`.
 * The parent enumerates input vectors depth-first (values from DT_DOMAIN),
 * running the program in a forked child per vector.  Child exit codes:
 * 10 returned from main / ended by error function, 11 needs more input,
 * 12 assumption false (infeasible), 13 repeated state (non-terminating),
 * 14 step cap (undecided), 15 the machine trapped (`__dt_divtrap`: the run
 * ends, as the x86 `idiv` of MIN by -1 ends it), 90 sanitizer report;
 * SIGALRM: undecided.
 *
 * Built a second time with -DDT_OUTSIDE_MAIN for programs with code outside
 * main's control flow (constructors, destructors, `.init_array` and
 * `.fini_array` entries): the enumeration then runs in a constructor of
 * priority 101, before the program's own constructors; each child jumps
 * back out of it, so that the program's constructors run in the child, then
 * main, and the child ends with exit(10) (not _exit), so that destructors
 * and `.fini_array` entries run too.
 *
 * A child also checks, every 20 ms of its CPU time (SIGVTALRM), whether it
 * is stopped on an instruction that jumps to itself: `jmp .` (bytes eb fe,
 * inline assembly `1: jmp 1b` or `.byte 0xeb, 0xfe`), or `jrcxz .` (e3 fe)
 * with %rcx zero. Nothing but a signal could take it out of there (and the
 * programs raise none asynchronously): the run never ends (exit 13). Any
 * other loop inside assembly is left to the time limit (undecided). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/time.h>
#include <ucontext.h>
#ifdef DT_OUTSIDE_MAIN
#include <setjmp.h>
static jmp_buf child_jb;
static int child_argc = 1;
#endif

int __dt_user_main(int, char **);

static long in_vals[64];
static int in_n, in_cur;

static long next_in(void) { if (in_cur >= in_n) _exit(11); return in_vals[in_cur++]; }
int __VERIFIER_nondet_int(void) { return (int)next_in(); }
unsigned __VERIFIER_nondet_uint(void) { return (unsigned)next_in(); }
char __VERIFIER_nondet_char(void) { return (char)next_in(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)next_in(); }
short __VERIFIER_nondet_short(void) { return (short)next_in(); }
unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)next_in(); }
long __VERIFIER_nondet_long(void) { return next_in(); }
unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)next_in(); }
_Bool __VERIFIER_nondet_bool(void) { return next_in() != 0; }
void __VERIFIER_assume(int c) { if (!c) _exit(12); }
void __VERIFIER_error(void) { _exit(10); }
void reach_error(void) { _exit(10); }

/* ---- state snapshots ---- */
#define MAXBUF 8192
static long buf[MAXBUF];
static int nbuf;
static long frames;
static long nsnaps, snapcap = 200000;
typedef struct { unsigned long h; long off; int len; } ent;
static ent *tab; static unsigned long tabsz;
static long *arena; static long arenan, arenacap;

long __dt_enter(void) { return ++frames; }

/* A signed division `a / b` or `a % b` about to be made, `min` the least
 * value of its type: MIN by -1 is undefined in C and traps on x86 (the
 * `idiv` instruction raises #DE, SIGFPE), so the run ends there.  The
 * program's instrumentation calls this before the division, so that the
 * run ends before UBSan reports it (which would set the program aside). */
void __dt_divtrap(long a, long b, long min) { if (b == -1 && a == min) _exit(15); }

/* ---- heap registry (list shapes): every block the program allocated and
 * has not freed, with its size; each snapshot holds their addresses and
 * bytes, so a repeated state covers the nodes the program walks.  The
 * program's instrumentation registers a block after its allocation,
 * unregisters it before `free`, and drops the blocks of a scope that no
 * pointer outlives (`__dt_heap_mark`/`__dt_heap_drop`). */
#define MAXREG 1024
static const void *reg_p[MAXREG]; static unsigned long reg_n[MAXREG]; static long nreg;
void __dt_reg(const void *p, unsigned long n) {
    if (!p) return;
    if (nreg >= MAXREG) _exit(14);
    reg_p[nreg] = p; reg_n[nreg] = n; nreg++;
}
void __dt_unreg(const void *p) {
    for (long i = 0; i < nreg; i++)
        if (reg_p[i] == p) {
            memmove(reg_p + i, reg_p + i + 1, (nreg - i - 1) * sizeof reg_p[0]);
            memmove(reg_n + i, reg_n + i + 1, (nreg - i - 1) * sizeof reg_n[0]);
            nreg--;
            return;
        }
}
long __dt_heap_mark(void) { return nreg; }
void __dt_heap_drop(long m) { if (m >= 0 && m < nreg) nreg = m; }
void __dt_v(long x) { if (nbuf >= MAXBUF) _exit(14); buf[nbuf++] = x; }
void __dt_m(const void *p, unsigned long n) {
    __dt_v((long)p);
    if (p) { const unsigned char *c = p; for (unsigned long i = 0; i < n; i++) __dt_v(c[i]); }
}
static unsigned long hashv(const long *v, int n) {
    unsigned long h = 1469598103934665603UL;
    for (int i = 0; i < n; i++) { h ^= (unsigned long)v[i]; h *= 1099511628211UL; h ^= h >> 29; }
    return h | 1;
}
static void grow(void);
static void insert(unsigned long h, long off, int len) {
    unsigned long i = h & (tabsz - 1);
    while (tab[i].h) i = (i + 1) & (tabsz - 1);
    tab[i].h = h; tab[i].off = off; tab[i].len = len;
}
static void grow(void) {
    ent *old = tab; unsigned long oldsz = tabsz;
    tabsz = tabsz ? tabsz * 2 : 1024;
    tab = calloc(tabsz, sizeof(ent));
    if (!tab) _exit(14);
    for (unsigned long i = 0; i < oldsz; i++) if (old[i].h) insert(old[i].h, old[i].off, old[i].len);
    free(old);
}
static void heap_snap(void) {
    if (nreg == 0) return;
    __dt_v(-7); __dt_v(nreg);
    for (long i = 0; i < nreg; i++) {
        const unsigned char *c = reg_p[i];
        __dt_v((long)c); __dt_v((long)reg_n[i]);
        for (unsigned long j = 0; j < reg_n[i]; j += sizeof(long)) {
            long w = 0;
            unsigned long k = reg_n[i] - j < sizeof(long) ? reg_n[i] - j : sizeof(long);
            for (unsigned long b = 0; b < k; b++) ((unsigned char *)&w)[b] = c[j + b];
            __dt_v(w);
        }
    }
}
void __dt_end(int id, long fr) {
    heap_snap();
    __dt_v(id); __dt_v(fr); __dt_v(in_cur);
    unsigned long h = hashv(buf, nbuf);
    if (tabsz == 0 || (unsigned long)nsnaps * 2 >= tabsz) grow();
    unsigned long i = h & (tabsz - 1);
    while (tab[i].h) {
        if (tab[i].h == h && tab[i].len == nbuf && memcmp(arena + tab[i].off, buf, nbuf * sizeof(long)) == 0)
            _exit(13);
        i = (i + 1) & (tabsz - 1);
    }
    if (arenan + nbuf > arenacap) {
        arenacap = (arenacap + nbuf) * 2;
        arena = realloc(arena, arenacap * sizeof(long));
        if (!arena) _exit(14);
    }
    memcpy(arena + arenan, buf, nbuf * sizeof(long));
    insert(h, arenan, nbuf);
    arenan += nbuf;
    nbuf = 0;
    if (++nsnaps > snapcap) _exit(14);
}

/* ---- a child stopped on a jump to itself (inline assembly) ---- */
static void spin_check(int sig, siginfo_t *si, void *ctx) {
    (void)sig; (void)si;
    const ucontext_t *uc = ctx;
    const unsigned char *ip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
    if (ip[0] == 0xeb && ip[1] == 0xfe) _exit(13);
    if (ip[0] == 0xe3 && ip[1] == 0xfe && uc->uc_mcontext.gregs[REG_RCX] == 0) _exit(13);
}

static void spin_watch(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = spin_check;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGVTALRM, &sa, 0);
    struct itimerval it = { { 0, 20000 }, { 0, 20000 } };
    setitimer(ITIMER_VIRTUAL, &it, 0);
}

/* ---- parent: depth-first enumeration of input vectors ---- */
static long dom[256]; static int ndom;
static long maxruns = 2000, maxdepth = 8, runsecs = 2;
static long runs, n_term, n_nonterm, n_undec, n_san, n_infeas, n_trap; static int capped;
static int argc_hi = 1;

static int run_one(int uargc, const long *v, int n) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); exit(2); }
    if (pid == 0) {
        memcpy(in_vals, v, n * sizeof(long)); in_n = n; in_cur = 0;
        /* the program's own output (printf shapes) must not reach the summary line */
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) { dup2(devnull, 1); close(devnull); }
        alarm(runsecs);
        spin_watch();
#ifdef DT_OUTSIDE_MAIN
        /* out of the enumeration: the program's constructors, then main */
        child_argc = uargc;
        longjmp(child_jb, 1);
#else
        char *uargv[8] = { "prog", "a", "b", "c", "d", "e", "f", 0 };
        uargv[uargc] = 0;
        __dt_user_main(uargc, uargv);
        _exit(10);
#endif
    }
    int st;
    while (waitpid(pid, &st, 0) < 0) {}
    runs++;
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) return 14;
    return 90;
}

static void dfs(int uargc, long *v, int n) {
    if (runs >= maxruns) { capped = 1; return; }
    int r = run_one(uargc, v, n);
    switch (r) {
    case 10: n_term++; break;
    case 11:
        if (n >= maxdepth) { n_undec++; break; }
        for (int i = 0; i < ndom; i++) { v[n] = dom[i]; dfs(uargc, v, n + 1); if (capped) return; }
        break;
    case 12: n_infeas++; break;
    case 13: n_nonterm++; break;
    case 14: n_undec++; break;
    case 15: n_trap++; break;
    default: n_san++; break;
    }
}

static void enumerate(void) {
    const char *d = getenv("DT_DOMAIN");
    if (d) {
        char *s = strdup(d), *tok = strtok(s, ",");
        while (tok && ndom < 256) { dom[ndom++] = strtol(tok, 0, 0); tok = strtok(0, ","); }
    }
    if (ndom == 0) dom[ndom++] = 0;
    if (getenv("DT_MAXRUNS")) maxruns = atol(getenv("DT_MAXRUNS"));
    if (getenv("DT_RUNSECS")) runsecs = atol(getenv("DT_RUNSECS"));
    if (getenv("DT_ARGC")) argc_hi = atoi(getenv("DT_ARGC"));
    long v[64];
    for (int a = 1; a <= argc_hi && !capped; a++) dfs(a, v, 0);
    printf("runs=%ld term=%ld nonterm=%ld undec=%ld san=%ld infeas=%ld capped=%d trap=%ld\n",
           runs, n_term, n_nonterm, n_undec, n_san, n_infeas, capped, n_trap);
}

#ifdef DT_OUTSIDE_MAIN
__attribute__((constructor(101))) static void dt_parent(void) {
    if (setjmp(child_jb)) return; /* a child: on to the program's constructors */
    enumerate();
    fflush(stdout);
    _exit(0);
}

int main(void) {
    char *uargv[8] = { "prog", "a", "b", "c", "d", "e", "f", 0 };
    uargv[child_argc] = 0;
    __dt_user_main(child_argc, uargv);
    exit(10); /* destructors and .fini_array run */
}
#else
int main(void) {
    enumerate();
    return 0;
}
#endif
