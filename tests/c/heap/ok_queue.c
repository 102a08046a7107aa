// expected: YES
// Linked queue: enqueue n input values (n <= 1000) at the tail, dequeue from the head until empty.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

struct queue {
  struct node *head, *tail;
};

static int enqueue(struct queue *q, int value) {
  struct node *p = malloc(sizeof *p);
  if (p == NULL)
    return 0;
  p->value = value;
  p->next = NULL;
  if (q->tail == NULL)
    q->head = p;
  else
    q->tail->next = p;
  q->tail = p;
  return 1;
}

static int dequeue(struct queue *q) {
  struct node *p = q->head;
  int value = p->value;
  q->head = p->next;
  if (q->head == NULL)
    q->tail = NULL;
  free(p);
  return value;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000)
    return 0;

  struct queue q = {NULL, NULL};
  for (int i = 0; i < n; i++)
    if (!enqueue(&q, __VERIFIER_nondet_int()))
      break;

  int dequeued = 0;
  while (q.head != NULL) {
    dequeue(&q);
    dequeued++;
  }
  return dequeued == n ? 0 : 1;
}
