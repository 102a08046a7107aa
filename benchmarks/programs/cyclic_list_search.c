// A list of n cells made into a ring, then searched for a key: a key
// the ring does not hold is looked for forever. The list lives on the
// heap, so the model abstracts its links; execution finds the run that
// comes back to its state (n = 0: one cell; key = 1).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
    int key;
    struct cell *next;
};

int main(void) {
    int n = __VERIFIER_nondet_int();
    struct cell *head = malloc(sizeof *head);
    if (!head) return 0;
    head->key = 0;
    struct cell *last = head;
    for (int i = 1; i < n; i++) {
        struct cell *c = malloc(sizeof *c);
        if (!c) return 0;
        c->key = i;
        last->next = c;
        last = c;
    }
    last->next = head;
    int key = __VERIFIER_nondet_int();
    struct cell *p = head;
    while (p->key != key)
        p = p->next;
    return 0;
}
