//! Scoreboard arithmetic: per-category and overall counts, the SV-COMP score,
//! time statistics, and the comparison with Z3 on CHC problems.

use super::index::Mode;
use super::outcome::{Answer, RunRecord, Status};

/// SV-COMP points (termination category): a correct "terminates" is worth
/// more than a correct "does not terminate", and wrong answers cost far
/// more than they could ever earn.
pub const POINTS_CORRECT_YES: i64 = 2;
pub const POINTS_CORRECT_NO: i64 = 1;
pub const POINTS_WRONG_YES: i64 = -32;
pub const POINTS_WRONG_NO: i64 = -16;

/// Counts over a set of runs.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Tally {
    pub tasks: usize,
    pub correct_yes: usize,
    pub correct_no: usize,
    pub wrong_yes: usize,
    pub wrong_no: usize,
    /// MAYBE / unknown answered within the time limit.
    pub maybe: usize,
    pub timeout: usize,
    pub memout: usize,
    pub error: usize,
    /// SV-COMP points; termination tasks only (CHC has no such score).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svcomp_score: Option<i64>,
    /// Wall time of the correctly solved tasks.
    pub correct_time_total_seconds: f64,
    pub correct_time_median_seconds: Option<f64>,
    #[serde(skip)]
    correct_times: Vec<f64>,
}

impl Tally {
    /// An empty tally; it keeps SV-COMP points only for termination tasks.
    pub fn for_mode(mode: Mode) -> Tally {
        Tally {
            svcomp_score: (mode == Mode::Termination).then_some(0),
            ..Tally::default()
        }
    }

    pub fn add(&mut self, run: &RunRecord) {
        self.tasks += 1;
        let points = match (&run.status, run.answer_kind) {
            (Status::Correct, Answer::Yes) => {
                self.correct_yes += 1;
                POINTS_CORRECT_YES
            }
            (Status::Correct, _) => {
                self.correct_no += 1;
                POINTS_CORRECT_NO
            }
            (Status::Wrong, Answer::Yes) => {
                self.wrong_yes += 1;
                POINTS_WRONG_YES
            }
            (Status::Wrong, _) => {
                self.wrong_no += 1;
                POINTS_WRONG_NO
            }
            (Status::Unknown, _) => {
                self.maybe += 1;
                0
            }
            (Status::Timeout, _) => {
                self.timeout += 1;
                0
            }
            (Status::Memout, _) => {
                self.memout += 1;
                0
            }
            (Status::Error(_), _) => {
                self.error += 1;
                0
            }
        };
        if let Some(score) = &mut self.svcomp_score {
            *score += points;
        }
        if run.status == Status::Correct {
            self.correct_times.push(run.wall_seconds);
            self.correct_time_total_seconds += run.wall_seconds;
            self.correct_time_median_seconds = median(&self.correct_times);
        }
    }

    pub fn correct(&self) -> usize {
        self.correct_yes + self.correct_no
    }

    pub fn wrong(&self) -> usize {
        self.wrong_yes + self.wrong_no
    }

    pub fn from_runs<'a>(mode: Mode, runs: impl IntoIterator<Item = &'a RunRecord>) -> Tally {
        let mut t = Tally::for_mode(mode);
        for r in runs {
            t.add(r);
        }
        t
    }
}

/// Median of a list of times (mean of the two middle ones for even lengths).
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// Tessera against Z3 on the same CHC problems.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Comparison {
    pub tessera_correct: usize,
    pub z3_correct: usize,
    pub both_correct: usize,
    pub only_tessera: usize,
    pub only_z3: usize,
    pub tessera_wrong: usize,
    pub z3_wrong: usize,
    /// Total wall time on the problems both solved correctly.
    pub tessera_time_on_both_seconds: f64,
    pub z3_time_on_both_seconds: f64,
    /// tessera / z3 on the problems both solved; `None` when there are none
    /// or Z3's total is zero.
    pub time_ratio: Option<f64>,
}

impl Comparison {
    pub fn of<'a>(pairs: impl IntoIterator<Item = (&'a RunRecord, &'a RunRecord)>) -> Comparison {
        let mut c = Comparison::default();
        for (t, z) in pairs {
            let t_ok = t.status == Status::Correct;
            let z_ok = z.status == Status::Correct;
            c.tessera_correct += t_ok as usize;
            c.z3_correct += z_ok as usize;
            c.tessera_wrong += (t.status == Status::Wrong) as usize;
            c.z3_wrong += (z.status == Status::Wrong) as usize;
            match (t_ok, z_ok) {
                (true, true) => {
                    c.both_correct += 1;
                    c.tessera_time_on_both_seconds += t.wall_seconds;
                    c.z3_time_on_both_seconds += z.wall_seconds;
                }
                (true, false) => c.only_tessera += 1,
                (false, true) => c.only_z3 += 1,
                (false, false) => {}
            }
        }
        if c.both_correct > 0 && c.z3_time_on_both_seconds > 0.0 {
            c.time_ratio = Some(c.tessera_time_on_both_seconds / c.z3_time_on_both_seconds);
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(answer: Answer, status: Status, wall: f64) -> RunRecord {
        RunRecord {
            answer: "",
            answer_kind: answer,
            status,
            wall_seconds: wall,
            cpu_seconds: 0.0,
            peak_memory_mb: 0.0,
            exit: String::new(),
            detail: String::new(),
        }
    }

    #[test]
    fn svcomp_points_and_counts() {
        let runs = [
            rec(Answer::Yes, Status::Correct, 1.0),
            rec(Answer::Yes, Status::Correct, 3.0),
            rec(Answer::No, Status::Correct, 2.0),
            rec(Answer::Yes, Status::Wrong, 0.5),
            rec(Answer::No, Status::Wrong, 0.5),
            rec(Answer::Maybe, Status::Unknown, 0.5),
            rec(Answer::Maybe, Status::Timeout, 30.0),
            rec(Answer::Maybe, Status::Memout, 3.0),
            rec(Answer::Maybe, Status::Error("unsupported".into()), 0.1),
            // A late YES is a timeout: no points.
            rec(Answer::Yes, Status::Timeout, 31.0),
        ];
        let t = Tally::from_runs(Mode::Termination, &runs);
        assert_eq!(t.tasks, 10);
        assert_eq!(
            (t.correct_yes, t.correct_no, t.wrong_yes, t.wrong_no),
            (2, 1, 1, 1)
        );
        assert_eq!((t.maybe, t.timeout, t.memout, t.error), (1, 2, 1, 1));
        assert_eq!(t.svcomp_score, Some(2 + 2 + 1 - 32 - 16));
        assert_eq!(Tally::from_runs(Mode::Chc, &runs).svcomp_score, None);
        assert_eq!(t.correct_time_total_seconds, 6.0);
        assert_eq!(t.correct_time_median_seconds, Some(2.0));
    }

    #[test]
    fn median_of_even_and_empty_lists() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn comparison_counts_and_time_ratio_on_common_problems() {
        let ok = |w| rec(Answer::Yes, Status::Correct, w);
        let unk = || rec(Answer::Maybe, Status::Unknown, 1.0);
        let t = [ok(2.0), ok(4.0), unk(), ok(1.0)];
        let z = [
            ok(1.0),
            ok(1.0),
            ok(1.0),
            rec(Answer::No, Status::Wrong, 1.0),
        ];
        let c = Comparison::of(t.iter().zip(z.iter()));
        assert_eq!((c.tessera_correct, c.z3_correct, c.both_correct), (3, 3, 2));
        assert_eq!((c.only_tessera, c.only_z3, c.z3_wrong), (1, 1, 1));
        assert_eq!(c.time_ratio, Some(3.0));
    }
}
