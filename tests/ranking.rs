//! Ranking-function pieces: exact fitting, the piece builder on the paper's
//! examples, combinations, and the printed form.
//!
//! The convergence tests stand in for the prover's T_term loop with a brute
//! force "engine": among a finite family of terminating traces, the first one
//! the current candidate does not cover is the counterexample of the round.

use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::BTreeMap;
use std::time::Instant;
use tessera::ranking::{
    fit_affine, parse_candidate, samples_from_header_states, AffinePiece, Combination, PieceBuilder, RankingCandidate,
    TerminatingSample,
};

type State = BTreeMap<String, BigInt>;

fn state(pairs: &[(&str, i64)]) -> State {
    pairs.iter().map(|(v, x)| (v.to_string(), BigInt::from(*x))).collect()
}

fn sample(pairs: &[(&str, i64)], remaining: i64) -> TerminatingSample {
    TerminatingSample::new(state(pairs), remaining)
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn fit_str(samples: &[TerminatingSample], vars: &[&str]) -> Option<String> {
    fit_affine(samples, &names(vars)).map(|p| p.to_string())
}

fn piece_strings(c: &RankingCandidate) -> Vec<String> {
    let mut v: Vec<String> = c.pieces.iter().map(|p| p.to_string()).collect();
    v.sort();
    v
}

/// Feed the first uncovered trace of `family` to the builder until every
/// trace is covered; returns the number of rounds (traces added).
fn converge(builder: &mut PieceBuilder, family: &[Vec<TerminatingSample>], max_rounds: usize) -> usize {
    for round in 0..=max_rounds {
        let candidate = builder.candidate();
        let Some(cex) = family.iter().find(|t| !candidate.covers_trace(t)) else { return round };
        let shown: Vec<String> = cex
            .iter()
            .map(|s| format!("{:?}->{}", s.state.values().map(|v| v.to_string()).collect::<Vec<_>>(), s.remaining))
            .collect();
        eprintln!("round {round}: {candidate}; cex {}", shown.join(" "));
        assert!(builder.add_trace(cex), "round {round}: no progress on a counterexample to {candidate}");
        assert!(builder.candidate().covers_trace(cex), "round {round}: new candidate misses its counterexample");
    }
    panic!("no convergence after {max_rounds} rounds: {}", builder.candidate());
}

// ---- the exact fitter

#[test]
fn paper_example_5_fits_21_minus_x() {
    let s = [sample(&[("x", 9)], 12), sample(&[("x", 4)], 17)];
    assert_eq!(fit_str(&s, &["x"]).as_deref(), Some("21 - x"));
}

#[test]
fn under_determined_fit_is_simple_then_refined() {
    // for (i = 0; i < n; i++) with n = 2: n is constant along the trace, so
    // the simplest piece uses i alone.
    let mut s =
        vec![sample(&[("i", 0), ("n", 2)], 2), sample(&[("i", 1), ("n", 2)], 1), sample(&[("i", 2), ("n", 2)], 0)];
    assert_eq!(fit_str(&s, &["i", "n"]).as_deref(), Some("2 - i"));
    assert_eq!(fit_str(&s, &["n", "i"]).as_deref(), Some("2 - i"));
    s.push(sample(&[("i", 0), ("n", 5)], 5));
    assert_eq!(fit_str(&s, &["i", "n"]).as_deref(), Some("n - i"));
}

#[test]
fn simplest_means_fewest_variables_then_integers_then_small() {
    // One sample: the constant explains it.
    assert_eq!(fit_str(&[sample(&[("x", 3), ("y", 7)], 4)], &["x", "y"]).as_deref(), Some("4"));
    // x and y both explain two samples with one variable; y gives integer
    // coefficients, x only 1/2.
    let s = [sample(&[("x", 0), ("y", 0)], 0), sample(&[("x", 2), ("y", 1)], 1)];
    assert_eq!(fit_str(&s, &["x", "y"]).as_deref(), Some("y"));
    // Both integer: the smaller coefficient wins (y, not 2*x).
    let s = [sample(&[("x", 0), ("y", 0)], 0), sample(&[("x", 1), ("y", 2)], 2)];
    assert_eq!(fit_str(&s, &["x", "y"]).as_deref(), Some("y"));
    // Exact ties go to the earlier variable.
    let s = [sample(&[("a", 0), ("b", 0)], 0), sample(&[("a", 1), ("b", 1)], 1)];
    assert_eq!(fit_str(&s, &["b", "a"]).as_deref(), Some("b"));
    assert_eq!(fit_str(&s, &["a", "b"]).as_deref(), Some("a"));
    // Same variables and coefficients: constant 0 preferred (y, not x + 1).
    let s = [sample(&[("x", 0), ("y", 1)], 1), sample(&[("x", 1), ("y", 2)], 2)];
    assert_eq!(fit_str(&s, &["x", "y"]).as_deref(), Some("y"));
}

#[test]
fn inconsistent_systems_have_no_fit() {
    assert_eq!(fit_str(&[sample(&[("x", 1)], 1), sample(&[("x", 1)], 2)], &["x"]), None);
    let s = [sample(&[("x", 0)], 0), sample(&[("x", 1)], 1), sample(&[("x", 2)], 3)];
    assert_eq!(fit_str(&s, &["x"]), None);
}

#[test]
fn rational_fits_are_exact() {
    let s = [sample(&[("x", 0)], 0), sample(&[("x", 3)], 1), sample(&[("x", 6)], 2)];
    let p = fit_affine(&s, &names(&["x"])).expect("fits");
    assert_eq!(p.to_string(), "x/3");
    assert_eq!(p.denominator_lcm(), BigInt::from(3));
    assert_eq!(p.to_scaled_affine(&BigInt::from(3)).map(|a| a.to_string()).as_deref(), Some("x"));
    let s = [sample(&[("x", 1)], 1), sample(&[("x", 4)], 3)];
    assert_eq!(fit_str(&s, &["x"]).as_deref(), Some("(2*x + 1)/3"));
}

#[test]
fn variables_missing_from_a_sample_are_not_used() {
    let s = [sample(&[("x", 0), ("y", 5)], 0), sample(&[("x", 1)], 1)];
    assert_eq!(fit_str(&s, &["y", "x"]).as_deref(), Some("x"));
}

/// Deterministic pseudo-random values (no rand dependency needed).
fn noise(seed: &mut u64) -> i64 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*seed >> 33) % 2001) as i64 - 1000
}

#[test]
fn fitting_hundreds_of_samples_over_twenty_variables_finds_the_sparse_fit() {
    let vars: Vec<String> = (0..20).map(|i| format!("v{i}")).collect();
    let mut seed = 7;
    let mut samples = Vec::new();
    for k in 0..300 {
        let mut st: State = vars.iter().map(|v| (v.clone(), BigInt::from(noise(&mut seed)))).collect();
        st.insert("v3".into(), BigInt::from(k));
        st.insert("v17".into(), BigInt::from(400));
        samples.push(TerminatingSample::new(st, 400 - k));
    }
    // Support of size 2 found by enumeration (v17 is constant, so 400 - v3).
    // How long it takes is printed, not asserted (timing belongs in
    // benchmarks; a loaded machine would fail a bound).
    let t = Instant::now();
    let p = fit_affine(&samples, &vars).expect("fits");
    let elapsed = t.elapsed();
    assert_eq!(p.to_string(), "400 - v3");
    eprintln!("fit of 300 samples over 20 variables: {elapsed:?}");

    // Five variables: beyond the enumeration, found by the fallback (the
    // random samples determine it uniquely).
    let mut seed = 11;
    let samples: Vec<TerminatingSample> = (0..300)
        .map(|_| {
            let st: State = vars.iter().map(|v| (v.clone(), BigInt::from(noise(&mut seed)))).collect();
            let r: BigInt = ["v1", "v4", "v9", "v12", "v19"].iter().map(|v| st[*v].clone()).sum::<BigInt>() + 7;
            TerminatingSample::new(st, r)
        })
        .collect();
    let t = Instant::now();
    let p = fit_affine(&samples, &vars).expect("fits");
    let elapsed = t.elapsed();
    assert_eq!(p.to_string(), "v1 + v12 + v19 + v4 + v9 + 7");
    eprintln!("fit of 300 samples over 20 variables: {elapsed:?}");
}

// ---- the piece builder on the paper's examples

/// `while (x != 0) { if (x < 10) x++; else x = -x; }` (the paper's 3pieces).
fn three_pieces_trace(x0: i64) -> Vec<TerminatingSample> {
    let mut states = vec![state(&[("x", x0)])];
    let mut x = x0;
    while x != 0 {
        x = if x < 10 { x + 1 } else { -x };
        states.push(state(&[("x", x)]));
    }
    samples_from_header_states(&states)
}

#[test]
fn samples_count_down_to_the_exit() {
    let t = three_pieces_trace(9);
    assert_eq!(t.len(), 13);
    assert_eq!(t[0], sample(&[("x", 9)], 12));
    assert_eq!(t[1], sample(&[("x", 10)], 11));
    assert_eq!(t[2], sample(&[("x", -10)], 10));
    assert_eq!(t[12], sample(&[("x", 0)], 0));
}

#[test]
fn three_pieces_gives_the_papers_max() {
    let mut b = PieceBuilder::new(Combination::Piecewise, &names(&["x"]));
    assert!(b.candidate().is_zero());
    assert!(b.add_trace(&three_pieces_trace(9)));
    assert_eq!(piece_strings(&b.candidate()), ["-x", "21 - x"]);
    // From x = 15 the only new information is (15, 16): one sample gives a
    // constant piece, and the tail is predicted by -x.
    assert!(b.add_trace(&three_pieces_trace(15)));
    assert_eq!(piece_strings(&b.candidate()), ["-x", "16", "21 - x"]);
    // The next counterexample (here x = 20) turns the constant into x + 1.
    assert!(!b.candidate().covers_trace(&three_pieces_trace(20)));
    assert!(b.add_trace(&three_pieces_trace(20)));
    assert_eq!(piece_strings(&b.candidate()), ["-x", "21 - x", "x + 1"]);
    // max{-x, 21-x, x+1} covers every start.
    for x0 in -50..=50 {
        assert!(b.candidate().covers_trace(&three_pieces_trace(x0)), "x0 = {x0}");
    }
}

#[test]
fn three_pieces_first_trace_from_the_large_region() {
    // A first trace crossing from x >= 10 into x < 0 must not bend one piece
    // through both regions (x/30 + 31/2).
    let mut b = PieceBuilder::new(Combination::Piecewise, &names(&["x"]));
    b.add_trace(&three_pieces_trace(15));
    assert_eq!(piece_strings(&b.candidate()), ["-x", "16"]);
}

#[test]
fn three_pieces_converges_in_few_rounds() {
    let family: Vec<_> = (-40..=40).map(three_pieces_trace).collect();
    let mut b = PieceBuilder::new(Combination::Piecewise, &names(&["x"]));
    let rounds = converge(&mut b, &family, 8);
    assert!(rounds <= 5, "{rounds} rounds: {}", b.candidate());
    assert_eq!(piece_strings(&b.candidate()), ["-x", "21 - x", "x + 1"]);
}

/// `while (x > 0 && y > 0) { if (nondet) { x--; y = nondet; } else y--; }`
/// (the paper's Fig. 7), with the non-determinism given as a script: at each
/// iteration `Some(c)` takes the first branch with y = c, `None` the second.
fn lex_trace(x0: i64, y0: i64, choices: &[Option<i64>]) -> Vec<TerminatingSample> {
    let (mut x, mut y) = (x0, y0);
    let mut states = vec![state(&[("x", x), ("y", y)])];
    let mut script = choices.iter();
    while x > 0 && y > 0 {
        match script.next().copied().flatten() {
            Some(c) => {
                x -= 1;
                y = c;
            }
            None => y -= 1,
        }
        states.push(state(&[("x", x), ("y", y)]));
    }
    samples_from_header_states(&states)
}

#[test]
fn figure_7_gives_a_lexicographic_candidate() {
    let mut b = PieceBuilder::new(Combination::Lexicographic, &names(&["x", "y"]));
    assert!(b.add_trace(&lex_trace(1, 1, &[])));
    assert_eq!(b.candidate().to_string(), "y");
    // x-- with y reset to 5, then y counts down: the excess iterations are
    // explained by a new, more significant component.
    assert!(b.add_trace(&lex_trace(2, 1, &[Some(5)])));
    let c = b.candidate();
    assert_eq!(c.to_string(), "lex(x - 1, y)");
    assert_eq!(parse_candidate("lex(x - 1, y)"), Ok(c.clone()));
    // It covers long traces with large resets it has never seen.
    assert!(c.covers_trace(&lex_trace(4, 3, &[Some(90), None, Some(7), Some(1000), None])));
}

#[test]
fn figure_7_converges_over_a_family_of_schedules() {
    let mut family = Vec::new();
    for x0 in 1..=3 {
        for y0 in 1..=3 {
            family.push(lex_trace(x0, y0, &[]));
            for c in 1..=6 {
                // Reset y to c whenever x is decremented, every other step.
                let script: Vec<Option<i64>> = (0..40).map(|k| (k % 2 == 0).then_some(c)).collect();
                family.push(lex_trace(x0, y0, &script));
                family.push(lex_trace(x0, y0, &[Some(c)]));
            }
        }
    }
    for comb in [Combination::Lexicographic, Combination::Multiphase] {
        let mut b = PieceBuilder::new(comb, &names(&["x", "y"]));
        let rounds = converge(&mut b, &family, 10);
        eprintln!("{comb}: {rounds} rounds: {}", b.candidate());
        assert!(rounds <= 6, "{comb}: {rounds} rounds: {}", b.candidate());
    }
}

#[test]
fn counting_loop_refines_the_single_piece_in_every_combination() {
    let trace = |n: i64| -> Vec<TerminatingSample> {
        let states: Vec<State> = (0..=n).map(|i| state(&[("i", i), ("n", n)])).collect();
        samples_from_header_states(&states)
    };
    for comb in Combination::ALL {
        let mut b = PieceBuilder::new(comb, &names(&["i", "n"]));
        b.add_trace(&trace(2));
        assert_eq!(b.candidate().to_string(), "2 - i", "{comb}");
        b.add_trace(&trace(5));
        assert_eq!(b.candidate().to_string(), "n - i", "{comb}");
        assert!(!b.add_trace(&trace(9)), "{comb}: n - i already covers n = 9");
    }
}

#[test]
fn rational_pieces_in_the_builder() {
    // while (x > 0) x -= 3;
    let trace = |x0: i64| -> Vec<TerminatingSample> {
        let mut states = vec![state(&[("x", x0)])];
        let mut x = x0;
        while x > 0 {
            x -= 3;
            states.push(state(&[("x", x)]));
        }
        samples_from_header_states(&states)
    };
    let mut b = PieceBuilder::new(Combination::Piecewise, &names(&["x"]));
    b.add_trace(&trace(9));
    assert_eq!(b.candidate().to_string(), "x/3");
    let family: Vec<_> = (-5..=60).map(trace).collect();
    let rounds = converge(&mut b, &family, 6);
    assert!(rounds <= 3, "{rounds}: {}", b.candidate());
    assert_eq!(b.candidate().denominator_lcm(), BigInt::from(3));
}

#[test]
fn samples_without_the_builders_variables_are_ignored() {
    let mut b = PieceBuilder::new(Combination::Piecewise, &names(&["x"]));
    assert!(!b.add_trace(&[sample(&[("y", 1)], 1), sample(&[("y", 0)], 0)]));
    assert!(b.candidate().is_zero());
    assert!(!b.add_trace(&[]));
}

#[test]
fn builder_handles_long_traces_over_many_variables() {
    // 300 iterations, 20 variables, most of them changing arbitrarily.
    let vars: Vec<String> = (0..20).map(|i| format!("v{i}")).collect();
    let mut seed = 3;
    let states: Vec<State> = (0..=300)
        .map(|k| {
            let mut st: State = vars.iter().map(|v| (v.clone(), BigInt::from(noise(&mut seed)))).collect();
            st.insert("v5".into(), BigInt::from(k));
            st
        })
        .collect();
    let trace = samples_from_header_states(&states);
    for comb in Combination::ALL {
        let mut b = PieceBuilder::new(comb, &vars);
        let t = Instant::now();
        b.add_trace(&trace);
        let elapsed = t.elapsed();
        assert_eq!(b.candidate().to_string(), "300 - v5", "{comb}");
        eprintln!("{comb}: one 300-iteration trace over 20 variables: {elapsed:?}");
    }
}

// ---- printed form

#[test]
fn candidates_print_in_the_papers_notation() {
    let p = |s: &str| parse_candidate(s).expect(s).pieces[0].clone();
    let max = RankingCandidate { combination: Combination::Piecewise, pieces: vec![p("21 - x"), p("x + 1"), p("-x")] };
    assert_eq!(max.to_string(), "max(21 - x, x + 1, -x)");
    let lex = RankingCandidate { combination: Combination::Lexicographic, pieces: vec![p("x"), p("y")] };
    assert_eq!(lex.to_string(), "lex(x, y)");
    let phases = RankingCandidate { combination: Combination::Multiphase, pieces: vec![p("y"), p("x")] };
    assert_eq!(phases.to_string(), "phases(y, x)");
    assert_eq!(RankingCandidate::zero(Combination::Multiphase).to_string(), "0");
    assert_eq!(RankingCandidate::single(p("n - i")).to_string(), "n - i");
}

#[test]
fn display_then_parse_is_the_identity() {
    let q = |n: i64, d: i64| BigRational::new(BigInt::from(n), BigInt::from(d));
    let piece = |terms: &[(&str, BigRational)], c: BigRational| AffinePiece {
        coeffs: terms.iter().map(|(v, k)| (v.to_string(), k.clone())).collect(),
        constant: c,
    };
    let pieces = vec![
        piece(&[("x", q(-1, 1))], q(21, 1)),
        piece(&[("x", q(2, 3))], q(1, 3)),
        piece(&[("x", q(-2, 3))], q(-1, 3)),
        piece(&[("i", q(-1, 1)), ("n", q(1, 1))], q(0, 1)),
        piece(&[("a.b", q(5, 2)), ("c_1", q(-7, 4))], q(-3, 8)),
        piece(&[], q(-4, 1)),
        piece(&[], q(7, 5)),
        piece(&[("y", q(-1, 6))], q(0, 1)),
        AffinePiece::zero(),
    ];
    let mut candidates: Vec<RankingCandidate> = pieces.iter().cloned().map(RankingCandidate::single).collect();
    for comb in Combination::ALL {
        candidates.push(RankingCandidate { combination: comb, pieces: pieces.clone() });
        candidates.push(RankingCandidate { combination: comb, pieces: pieces[..2].to_vec() });
    }
    for c in candidates {
        let text = c.to_string();
        let back = parse_candidate(&text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(back, c, "`{text}`");
        assert_eq!(back.to_string(), text);
    }
}

#[test]
fn parse_reads_every_form() {
    let c = parse_candidate("max(21 - x, x + 1, -x)").expect("max");
    assert_eq!(c.combination, Combination::Piecewise);
    assert_eq!(c.pieces.len(), 3);
    assert_eq!(parse_candidate(" phases( y , x ) ").expect("phases").to_string(), "phases(y, x)");
    assert_eq!(parse_candidate("3*(x - 1)/6 + 1/2").expect("rational").to_string(), "x/2");
    assert_eq!(parse_candidate("x*2 - -y").expect("signs").to_string(), "2*x + y");
    let zero = parse_candidate("0").expect("zero");
    assert!(zero.is_zero());
    assert_eq!(zero, RankingCandidate::zero(Combination::Lexicographic));
}

#[test]
fn parse_errors_say_what_is_wrong() {
    let err = |s: &str| parse_candidate(s).expect_err(s);
    assert!(err("x*y + 1").contains("non-linear"));
    assert!(err("x/y").contains("non-constant"));
    assert!(err("min(x, 1)").contains("unknown function `min`"));
    assert!(err("abs(x)").contains("unknown function `abs`"));
    assert!(err("lex(x, max(y, 1))").contains("whole candidate"));
    assert!(err("x +").contains("end of input"));
    assert!(err("2x").contains("unexpected `x` at column 2"));
    assert!(err("x ^ 2").contains("unexpected character `^`"));
    assert!(err("lex(x y)").contains("expected `,` or `)`"));
}

#[test]
fn builder_is_fast_on_program_like_traces() {
    // What traces of real loops look like: a few counters affine in the
    // iteration, flags that alternate, inputs and constants that do not
    // change, over 20 variables and 300 iterations.
    let vars: Vec<String> = (0..20).map(|i| format!("v{i}")).collect();
    let trace_from = |n: i64| -> Vec<TerminatingSample> {
        let states: Vec<State> = (0..=n)
            .map(|k| {
                let mut st: State =
                    vars.iter().enumerate().map(|(j, v)| (v.clone(), BigInt::from(j as i64 * 7 - 3))).collect();
                st.insert("v2".into(), BigInt::from(k));
                st.insert("v7".into(), BigInt::from(2 * k + 1));
                st.insert("v11".into(), BigInt::from(n - k));
                st.insert("v13".into(), BigInt::from(k % 2));
                st.insert("v15".into(), BigInt::from(n));
                st.insert("v16".into(), BigInt::from(3 * k * k % 17));
                st
            })
            .collect();
        samples_from_header_states(&states)
    };
    for comb in Combination::ALL {
        let mut b = PieceBuilder::new(comb, &vars);
        let t = Instant::now();
        b.add_trace(&trace_from(300));
        b.add_trace(&trace_from(250));
        let elapsed = t.elapsed();
        eprintln!("{comb}: two program-like traces: {elapsed:?}: {}", b.candidate());
        assert!(b.candidate().covers_trace(&trace_from(280)), "{comb}: {}", b.candidate());
    }
}
