; x = 0; while (x < 5) x += 2;  assert(x != 6)   -- fails: x ends at 6
(set-logic HORN)
(declare-fun loop (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (loop x))))
(assert (forall ((x Int) (x1 Int)) (=> (and (loop x) (< x 5) (= x1 (+ x 2))) (loop x1))))
(assert (forall ((x Int)) (=> (and (loop x) (>= x 5) (= x 6)) false)))
(check-sat)
(exit)
