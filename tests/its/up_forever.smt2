(declare-sort Loc 0)
(declare-const l0 Loc)
(declare-const l1 Loc)
(assert (distinct l0 l1))
(define-fun cfg_init ( (pc Loc) (src Loc) (rel Bool) ) Bool (and (= pc src) rel))
(define-fun cfg_trans2 ( (pc Loc) (src Loc) (pc1 Loc) (dst Loc) (rel Bool) ) Bool (and (= pc src) (= pc1 dst) rel))
(define-fun init_main ( (pc Loc) (i Int) (n Int) ) Bool (cfg_init pc l0 true))
(define-fun next_main ( (pc Loc) (i Int) (n Int) (pc1 Loc) (iP Int) (nP Int) ) Bool
  (or
    (cfg_trans2 pc l0 pc1 l1 (and (= iP 0) (= nP n)))
    (cfg_trans2 pc l1 pc1 l1 (exists ((k Int)) (and (>= i 0) (> k 0) (= iP (+ i k)) (= nP n))))
  )
)
