// inputs: lo, hi, key
// weakest precondition: lo >= hi || key <= lo
// kind: disjunctive
//
// Lower bound of key in the sorted array a[i] == i over [lo, hi), with the
// classic bug `lo = mid` instead of `lo = mid + 1`.
// While hi - lo >= 2 both branches shrink the interval (lo < mid < hi).
// If key <= lo, then mid >= lo >= key always, only `hi = mid` runs and the
// loop ends with lo == hi. If lo < hi and key > lo, then lo < key holds
// throughout (lo only becomes mid when mid < key), the interval shrinks to
// hi - lo == 1, and there mid == lo < key, so `lo = mid` changes nothing:
// the state (lo, hi, key) repeats forever.
// Division: hi - lo > 0, so truncating and floor division agree.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int lo = __VERIFIER_nondet_int();
  int hi = __VERIFIER_nondet_int();
  int key = __VERIFIER_nondet_int();
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (mid < key)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}
