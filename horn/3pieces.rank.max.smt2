(set-logic HORN)
; T_rank instrumentation of loop 0 (header L2) of benchmarks/programs/3pieces.c with candidate max(-x, 21 - x, x + 1)
; sat = the candidate bounds the iterations of every run (a ranking function); unsat = it does not

(declare-fun loop_L2 (Int Int) Bool)

; start -> loop_L2 (Entry)
(assert
  (forall ((x Int) (x!1 Int) (|r#init| Int))
    (=>
      (and
        (>= |r#init| (* (- 1) x!1))
        (>= |r#init| (+ (* (- 1) x!1) 21))
        (>= |r#init| (+ x!1 1))
        (>= |r#init| 0)
      )
      (loop_L2 x!1 |r#init|))))

; loop_L2 -> loop_L2 (Decrement)
(assert
  (forall ((x Int) (|r#0| Int))
    (=>
      (and
        (loop_L2 x |r#0|)
        (not (= x 0))
        (< x 10)
      )
      (loop_L2 (+ x 1) (- |r#0| 1)))))

; loop_L2 -> loop_L2: error, counters negative
(assert
  (forall ((x Int) (|r#0| Int))
    (=>
      (and
        (loop_L2 x |r#0|)
        (not (= x 0))
        (< x 10)
        (< |r#0| 0)
      )
      false)))

; loop_L2 -> loop_L2 (Decrement)
(assert
  (forall ((x Int) (|r#0| Int))
    (=>
      (and
        (loop_L2 x |r#0|)
        (not (= x 0))
        (not (< x 10))
      )
      (loop_L2 (- x) (- |r#0| 1)))))

; loop_L2 -> loop_L2: error, counters negative
(assert
  (forall ((x Int) (|r#0| Int))
    (=>
      (and
        (loop_L2 x |r#0|)
        (not (= x 0))
        (not (< x 10))
        (< |r#0| 0)
      )
      false)))

(check-sat)
(exit)
