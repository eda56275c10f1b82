//! Local search (AIMA's MIN-CONFLICTS): solutions are checked, a run that gives up never
//! claims there is no solution, and a seed determines the run.

use cspkit::models::colouring::Colouring;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cspkit::models::queens::{Queens, is_valid_placement};
use cspkit::{
    Limit, LocalOutcome, LocalSearchObserver, MinConflicts, MinConflictsRestart, MinConflictsStep,
    Model, NotEqual,
};

#[test]
fn queens_are_solved_and_the_solution_is_checked() {
    for n in [10, 50, 200, 1000] {
        let queens = Queens::new(n).unwrap();
        let mut search = MinConflicts::new(queens.model()).with_seed(1);
        let outcome = search.run();
        let solution = outcome.solution().expect("solved");
        assert!(queens.model().is_solution(solution.values()), "n = {n}");
        assert!(search.stats().steps < 100_000);
    }
}

#[test]
fn pairwise_queens_are_solved_through_check_alone() {
    let queens = Queens::pairwise(30).unwrap();
    let outcome = MinConflicts::new(queens.model()).with_seed(3).run();
    let solution = outcome.solution().expect("solved");
    assert!(queens.model().is_solution(solution.values()));
}

#[test]
fn three_queens_are_not_found_in_the_steps_given_and_not_declared_unsolvable() {
    let queens = Queens::new(3).unwrap();
    let mut search = MinConflicts::new(queens.model()).with_max_steps(1_000);
    assert_eq!(search.run(), LocalOutcome::NotFound { steps: 1_000 });
    assert_eq!(search.stats().steps, 1_000);
}

#[test]
fn a_triangle_with_two_colours_is_not_found() {
    let mut model = Model::new();
    let v = model.new_vars(3, 0..=1).unwrap();
    for (a, b) in [(0, 1), (1, 2), (0, 2)] {
        model.post(NotEqual::new(v[a], v[b])).unwrap();
    }
    let outcome = MinConflicts::new(&model).with_max_steps(200).run();
    assert_eq!(outcome, LocalOutcome::NotFound { steps: 200 });
}

#[test]
fn graphs_are_coloured() {
    let australia = Colouring::australia(3).unwrap();
    let outcome = MinConflicts::new(australia.model()).with_seed(2).run();
    let solution = outcome.solution().expect("solved");
    assert!(australia.model().is_solution(solution.values()));
    // An even cycle is 2-colourable; local search walks there at random.
    let mut model = Model::new();
    let v = model.new_vars(20, 0..=1).unwrap();
    for i in 0..20 {
        model.post(NotEqual::new(v[i], v[(i + 1) % 20])).unwrap();
    }
    let outcome = MinConflicts::new(&model).with_seed(4).run();
    let solution = outcome.solution().expect("solved");
    assert!(model.is_solution(solution.values()));
}

fn trace(model: &Model, seed: u64) -> (LocalOutcome, Vec<MinConflictsStep>) {
    let mut steps = Vec::new();
    let outcome = MinConflicts::new(model)
        .with_seed(seed)
        .with_max_steps(5_000)
        .run_with(|step| steps.push(*step));
    (outcome, steps)
}

#[test]
fn the_same_seed_gives_the_same_run_and_another_seed_another() {
    let queens = Queens::new(60).unwrap();
    let (first, first_steps) = trace(queens.model(), 5);
    let (second, second_steps) = trace(queens.model(), 5);
    assert_eq!(first, second);
    assert_eq!(first_steps, second_steps);
    let (_, other_steps) = trace(queens.model(), 6);
    assert_ne!(first_steps, other_steps);
}

#[test]
fn every_step_moves_a_variable_in_conflict_to_a_value_with_no_more_conflicts() {
    let queens = Queens::new(40).unwrap();
    let (outcome, steps) = trace(queens.model(), 11);
    assert!(outcome.is_solved());
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step.step, i as u64 + 1);
        assert!(step.conflicts_before > 0);
        assert!(step.conflicts_after <= step.conflicts_before);
    }
}

/// Records steps and restarts.
#[derive(Default)]
struct Recorder {
    steps: Vec<MinConflictsStep>,
    restarts: Vec<MinConflictsRestart>,
}

impl LocalSearchObserver for Recorder {
    fn step(&mut self, step: &MinConflictsStep) {
        self.steps.push(*step);
    }

    fn restart(&mut self, restart: &MinConflictsRestart) {
        self.restarts.push(*restart);
    }
}

#[test]
fn a_run_without_progress_restarts_and_the_restarts_are_counted() {
    // 8-Queens from seed 1 wanders on a plateau for more than a thousand steps.
    let queens = Queens::new(8).unwrap();
    let mut recorder = Recorder::default();
    let mut search = MinConflicts::new(queens.model())
        .with_seed(1)
        .with_restart_after(50);
    assert_eq!(search.restart_after(), 50);
    let outcome = search.run_observed(&mut recorder);
    assert!(
        queens
            .model()
            .is_solution(outcome.solution().unwrap().values())
    );
    let stats = search.stats();
    assert!(stats.restarts > 0);
    assert_eq!(recorder.restarts.len() as u64, stats.restarts);
    assert_eq!(recorder.steps.len() as u64, stats.steps);
    for (i, restart) in recorder.restarts.iter().enumerate() {
        assert_eq!(restart.restart, i as u64 + 1);
        assert!(restart.best_conflicts > 0);
    }
    // Without restarts, the same seed stays on its plateau: its whole budget goes by.
    let mut patient = MinConflicts::new(queens.model())
        .with_seed(1)
        .with_restart_after(u64::MAX);
    assert_eq!(patient.run(), LocalOutcome::NotFound { steps: 100_000 });
    assert_eq!(patient.stats().restarts, 0);
}

#[test]
fn the_conflicts_in_all_fall_to_zero_exactly_when_solved() {
    for (n, seed) in [(30, 1), (100, 2), (8, 5)] {
        let queens = Queens::new(n).unwrap();
        let mut recorder = Recorder::default();
        let mut search = MinConflicts::new(queens.model()).with_seed(seed);
        assert!(search.run_observed(&mut recorder).is_solved());
        let last = recorder.steps.last().expect("some steps");
        assert_eq!(last.total_conflicts, 0);
        assert!(
            recorder.steps[..recorder.steps.len() - 1]
                .iter()
                .all(|s| s.total_conflicts > 0)
        );
        // A step changes the conflicts in all by its variable's change.
        for pair in recorder.steps.windows(2) {
            let change = i64::from(pair[1].conflicts_after) - i64::from(pair[1].conflicts_before);
            assert_eq!(
                pair[1].total_conflicts as i64,
                pair[0].total_conflicts as i64 + change
            );
        }
        assert_eq!(search.stats().final_conflicts, 0);
    }
}

#[test]
fn solutions_found_from_any_seed_satisfy_every_constraint() {
    // An independent check for queens; the model's checkers for colourings.
    for seed in 0..40 {
        for n in [4, 5, 8, 13, 64] {
            let queens = Queens::new(n).unwrap();
            let outcome = MinConflicts::new(queens.model()).with_seed(seed).run();
            let solution = outcome.solution().expect("solved");
            assert!(
                is_valid_placement(&queens.columns(solution)),
                "n = {n}, seed {seed}"
            );
        }
        let graph = Colouring::mycielski(4, 5).unwrap();
        let outcome = MinConflicts::new(graph.model()).with_seed(seed).run();
        assert!(
            graph
                .model()
                .is_solution(outcome.solution().expect("solved").values())
        );
    }
}

#[test]
fn a_solver_hands_its_time_limit_and_cancel_flag_to_local_search() {
    let queens = Queens::new(3).unwrap();
    let solver = queens.model().solver().with_time_limit(Duration::ZERO);
    let mut search = solver.min_conflicts().with_max_steps(u64::MAX);
    assert!(matches!(search.run(), LocalOutcome::NotFound { .. }));
    assert_eq!(search.stats().stopped_by, Some(Limit::Time));
    let flag = Arc::new(AtomicBool::new(true));
    let solver = queens.model().solver().with_cancel_flag(flag);
    let mut search = solver.min_conflicts().with_max_steps(u64::MAX);
    assert!(matches!(search.run(), LocalOutcome::NotFound { .. }));
    assert_eq!(search.stats().stopped_by, Some(Limit::Cancelled));
    // A budget of steps is not a limit of the solver's.
    let mut search = queens.model().solver().min_conflicts().with_max_steps(100);
    assert_eq!(search.run(), LocalOutcome::NotFound { steps: 100 });
    assert_eq!(search.stats().stopped_by, None);
}

#[test]
fn two_hundred_thousand_queens_are_placed_in_few_steps() {
    let queens = Queens::new(200_000).unwrap();
    let mut search = queens.model().solver().min_conflicts().with_seed(1);
    let outcome = search.run();
    assert!(is_valid_placement_fast(
        &queens.columns(outcome.solution().expect("solved"))
    ));
    assert!(search.stats().steps < 1_000, "{:?}", search.stats());
}

/// `is_valid_placement` in linear time, for large boards.
fn is_valid_placement_fast(columns: &[usize]) -> bool {
    let n = columns.len();
    let mut seen = vec![[false; 3]; 2 * n + 2];
    columns.iter().enumerate().all(|(row, &c)| {
        let keys = [c, c + n - row, c + row];
        (1..=n).contains(&c)
            && keys
                .iter()
                .enumerate()
                .all(|(kind, &key)| !std::mem::replace(&mut seen[key][kind], true))
    })
}

/// A variable over every `i32` (2³² values): a step never makes an array per value (17 GB),
/// and the time limit ends the run.
#[test]
fn domains_of_every_i32_cost_no_memory_per_value_and_the_time_limit_holds() {
    let mut model = Model::new();
    let x = model.new_var(i32::MIN..=i32::MAX).unwrap();
    let y = model.new_var(i32::MIN..=i32::MAX).unwrap();
    // x + y = 5: no greedy start satisfies it, so steps are taken.
    model
        .post(cspkit::Linear::new(
            &[(1, x), (1, y)],
            cspkit::Comparison::Eq,
            5,
        ))
        .unwrap();
    let mut search = MinConflicts::new(&model)
        .with_max_steps(u64::MAX)
        .with_time_limit(Duration::from_millis(200));
    let outcome = search.run();
    let stats = search.stats();
    if !outcome.is_solved() {
        assert_eq!(stats.stopped_by, Some(Limit::Time));
    }
    assert!(stats.steps > 0, "{stats:?}");
}

/// The greedy start of a large board reads the time limit too: a limit of zero stops the
/// run before any step, where the start alone used to take its full time.
#[test]
fn the_time_limit_holds_while_the_start_is_built() {
    let queens = Queens::new(100_000).unwrap();
    let mut search = MinConflicts::new(queens.model())
        .with_seed(1)
        .with_time_limit(Duration::ZERO);
    assert_eq!(search.run(), LocalOutcome::NotFound { steps: 0 });
    assert_eq!(search.stats().stopped_by, Some(Limit::Time));
    // A restart's start too.
    // Three variables, two values, pairwise different: never solved, restarted at every step.
    let mut model = Model::new();
    let v: Vec<_> = (0..3).map(|_| model.new_var(0..=1).unwrap()).collect();
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        model.post(NotEqual::new(v[a], v[b])).unwrap();
    }
    let mut search = MinConflicts::new(&model)
        .with_restart_after(1)
        .with_max_steps(u64::MAX)
        .with_time_limit(Duration::from_millis(50));
    assert!(!search.run().is_solved());
    assert_eq!(search.stats().stopped_by, Some(Limit::Time));
}
