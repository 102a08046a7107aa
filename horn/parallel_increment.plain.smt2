(set-logic HORN)
; Horn encoding of benchmarks/programs/parallel_increment.c (large-block, one predicate per cut-point)
; query: is the exit reachable (a run ended, or has no loop left ahead of it)? sat = no, unsat = yes

(declare-fun loop_L2 (Int Int) Bool)
(declare-fun exit () Bool)

; start -> loop_L2
(assert
  (forall ((x Int) (y Int))
    (=>
      true
      (loop_L2 0 9))))

; loop_L2 -> loop_L2
(assert
  (forall ((x Int) (y Int))
    (=>
      (and
        (loop_L2 x y)
        (not (= x y))
      )
      (loop_L2 (+ x 1) (+ y 1)))))

; loop_L2 -> exit
(assert
  (forall ((x Int) (y Int))
    (=>
      (and
        (loop_L2 x y)
        (= x y)
      )
      exit)))

; query: program exit reached
(assert
  (=>
    exit
    false))

(check-sat)
(exit)
