//! Local search (AIMA's MIN-CONFLICTS): solutions are checked, a run that gives up never
//! claims there is no solution, and a seed determines the run.

use cspkit::models::colouring::Colouring;
use cspkit::models::queens::Queens;
use cspkit::{LocalOutcome, MinConflicts, MinConflictsStep, Model, NotEqual};

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
