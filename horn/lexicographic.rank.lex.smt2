(set-logic HORN)
; T_rank instrumentation of loop 0 (header L2) of benchmarks/programs/lexicographic.c with candidate lex(x, y)
; sat = the candidate bounds the iterations of every run (a ranking function); unsat = it does not

(declare-fun loop_L2 (Int Int Int Int) Bool)

; start -> loop_L2 (Entry)
(assert
  (forall ((x Int) (y Int) (x!1 Int) (y!2 Int))
    (=>
      true
      (loop_L2 x!1 y!2 (ite (>= x!1 0) x!1 0) (ite (>= y!2 0) y!2 0)))))

; loop_L2 -> loop_L2 (Decrement)
(assert
  (forall ((x Int) (y Int) (|r#0| Int) (|r#1| Int) (y!3 Int))
    (=>
      (and
        (loop_L2 x y |r#0| |r#1|)
        (> x 0)
        (> y 0)
      )
      (loop_L2 (- x 1) y!3 (ite (and (>= |r#0| 0) (< |r#1| 0)) (- |r#0| 1) |r#0|) (ite (>= |r#1| 0) (- |r#1| 1) (ite (and (< |r#1| 0) (>= |r#0| 0)) (ite (>= y 0) y 0) |r#1|))))))

; loop_L2 -> loop_L2: error, counters negative
(assert
  (forall ((x Int) (y Int) (|r#0| Int) (|r#1| Int) (y!3 Int))
    (=>
      (and
        (loop_L2 x y |r#0| |r#1|)
        (> x 0)
        (> y 0)
        (< |r#0| 0)
      )
      false)))

; loop_L2 -> loop_L2 (Decrement)
(assert
  (forall ((x Int) (y Int) (|r#0| Int) (|r#1| Int))
    (=>
      (and
        (loop_L2 x y |r#0| |r#1|)
        (> x 0)
        (> y 0)
      )
      (loop_L2 x (- y 1) (ite (and (>= |r#0| 0) (< |r#1| 0)) (- |r#0| 1) |r#0|) (ite (>= |r#1| 0) (- |r#1| 1) (ite (and (< |r#1| 0) (>= |r#0| 0)) (ite (>= y 0) y 0) |r#1|))))))

; loop_L2 -> loop_L2: error, counters negative
(assert
  (forall ((x Int) (y Int) (|r#0| Int) (|r#1| Int))
    (=>
      (and
        (loop_L2 x y |r#0| |r#1|)
        (> x 0)
        (> y 0)
        (< |r#0| 0)
      )
      false)))

(check-sat)
(exit)
