(set-logic HORN)
; Horn encoding of benchmarks/programs/3pieces.c (large-block, one predicate per cut-point)
; query: is the exit reachable (a run ended, or has no loop left ahead of it)? sat = no, unsat = yes

(declare-fun loop_L2 (Int) Bool)
(declare-fun exit () Bool)

; start -> loop_L2
(assert
  (forall ((x Int) (x!1 Int))
    (=>
      true
      (loop_L2 x!1))))

; loop_L2 -> loop_L2
(assert
  (forall ((x Int))
    (=>
      (and
        (loop_L2 x)
        (not (= x 0))
        (< x 10)
      )
      (loop_L2 (+ x 1)))))

; loop_L2 -> loop_L2
(assert
  (forall ((x Int))
    (=>
      (and
        (loop_L2 x)
        (not (= x 0))
        (not (< x 10))
      )
      (loop_L2 (- x)))))

; loop_L2 -> exit
(assert
  (forall ((x Int))
    (=>
      (and
        (loop_L2 x)
        (= x 0)
      )
      exit)))

; query: program exit reached
(assert
  (=>
    exit
    false))

(check-sat)
(exit)
