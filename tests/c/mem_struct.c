#include <stdlib.h>

struct node { int value; struct node *next; };

int main() {
    struct node *head = malloc(sizeof(struct node));
    head->next = 0;
    int n = 0;
    for (struct node *p = head; p != 0; p = p->next)
        n++;
    return n;
}
