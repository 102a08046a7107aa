(set-logic HORN)
; T_rank instrumentation of loop 0 (header L2) of benchmarks/programs/lexicographic.c with candidate max(y)
; sat = the candidate bounds the iterations of every run (a ranking function); unsat = it does not

(declare-fun loop_L2 (Int Int Int) Bool)

; start -> loop_L2 (Entry)
(assert
  (forall ((x Int) (y Int) (x!1 Int) (y!2 Int) (|r#init| Int))
    (=>
      (and
        (>= |r#init| y!2)
        (>= |r#init| 0)
      )
      (loop_L2 x!1 y!2 |r#init|))))

; loop_L2 -> loop_L2 (Decrement)
(assert
  (forall ((x Int) (y Int) (|r#0| Int) (y!3 Int))
    (=>
      (and
        (loop_L2 x y |r#0|)
        (> x 0)
        (> y 0)
      )
      (loop_L2 (- x 1) y!3 (- |r#0| 1)))))

; loop_L2 -> loop_L2: error, counters negative
(assert
  (forall ((x Int) (y Int) (|r#0| Int) (y!3 Int))
    (=>
      (and
        (loop_L2 x y |r#0|)
        (> x 0)
        (> y 0)
        (< |r#0| 0)
      )
      false)))

; loop_L2 -> loop_L2 (Decrement)
(assert
  (forall ((x Int) (y Int) (|r#0| Int))
    (=>
      (and
        (loop_L2 x y |r#0|)
        (> x 0)
        (> y 0)
      )
      (loop_L2 x (- y 1) (- |r#0| 1)))))

; loop_L2 -> loop_L2: error, counters negative
(assert
  (forall ((x Int) (y Int) (|r#0| Int))
    (=>
      (and
        (loop_L2 x y |r#0|)
        (> x 0)
        (> y 0)
        (< |r#0| 0)
      )
      false)))

(check-sat)
(exit)
