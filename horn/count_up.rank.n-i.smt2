(set-logic HORN)
; T_rank instrumentation of loop 0 (header L2) of benchmarks/programs/count_up.c with candidate max(-i + n)
; sat = the candidate bounds the iterations of every run (a ranking function); unsat = it does not

(declare-fun loop_L2 (Int Int Int) Bool)

; start -> loop_L2 (Entry)
(assert
  (forall ((n Int) (i Int) (n!1 Int) (|r#init| Int))
    (=>
      (and
        (>= |r#init| n!1)
        (>= |r#init| 0)
      )
      (loop_L2 n!1 0 |r#init|))))

; loop_L2 -> loop_L2 (Decrement)
(assert
  (forall ((n Int) (i Int) (|r#0| Int))
    (=>
      (and
        (loop_L2 n i |r#0|)
        (< i n)
      )
      (loop_L2 n (+ i 1) (- |r#0| 1)))))

; loop_L2 -> loop_L2: error, counters negative
(assert
  (forall ((n Int) (i Int) (|r#0| Int))
    (=>
      (and
        (loop_L2 n i |r#0|)
        (< i n)
        (< |r#0| 0)
      )
      false)))

(check-sat)
(exit)
