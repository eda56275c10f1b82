//! `SearchConfig` and `Propagation`: a solver made from a configuration searches exactly as one
//! set up method by method, and the checks against the model happen when it is made.

use std::num::NonZeroUsize;

use cspkit::models::queens::Queens;
use cspkit::{
    AllDifferent, Branching, EventLog, LinearExpr, Lns, Model, ModelError, Optimum, OwnedEvent,
    Propagation, PropagationLevel, SearchConfig, SearchStats,
};

/// The events and statistics of counting every solution.
fn run(solver: cspkit::Solver<'_>) -> (Vec<OwnedEvent>, SearchStats) {
    let mut events = EventLog::new();
    let mut solver = solver.with_observer(&mut events);
    solver.count();
    let stats = solver.stats();
    drop(solver);
    (events.take(), stats)
}

/// Statistics without the time, which differs from run to run.
fn counts(mut stats: SearchStats) -> SearchStats {
    stats.elapsed = std::time::Duration::ZERO;
    stats
}

#[test]
#[allow(
    deprecated,
    reason = "compares the configuration with the deprecated methods it replaces"
)]
fn a_configuration_searches_as_the_methods_it_replaces() {
    let queens = Queens::pairwise(6).unwrap();
    let model = queens.model();
    for propagation in Propagation::ALL {
        for branching in [Branching::Assign, Branching::Split, Branching::DWay] {
            let config = SearchConfig::new()
                .with_propagation(propagation)
                .with_branching(branching);
            let configured = model.solver_with(config.clone()).unwrap();
            assert_eq!(configured.config().propagation(), propagation);
            let level = propagation.level();
            let by_methods = model
                .solver()
                .with_propagation(level)
                .with_branching(branching)
                .with_textbook_forward_checking(propagation == Propagation::TextbookForward)
                .with_ac3(propagation == Propagation::Ac3)
                .unwrap();
            assert_eq!(by_methods.propagation(), configured.propagation());
            assert_eq!(
                by_methods.textbook_forward_checking(),
                propagation == Propagation::TextbookForward
            );
            assert_eq!(by_methods.ac3(), propagation == Propagation::Ac3);
            let (events, stats) = run(configured);
            let (expected_events, expected_stats) = run(by_methods);
            assert_eq!(stats.solutions, 4, "{propagation} {branching}");
            assert_eq!(
                counts(stats),
                counts(expected_stats),
                "{propagation} {branching}"
            );
            assert_eq!(events, expected_events, "{propagation} {branching}");
            // The same configuration given to a solver already made.
            let (events, _) = run(model.solver().with_config(config).unwrap());
            assert_eq!(events, expected_events, "{propagation} {branching}");
        }
    }
}

#[test]
#[allow(deprecated, reason = "checks what the deprecated methods set")]
fn the_deprecated_switches_set_the_one_propagation() {
    let queens = Queens::pairwise(4).unwrap();
    let solver = queens.model().solver();
    let solver = solver.with_textbook_forward_checking(true);
    assert_eq!(solver.config().propagation(), Propagation::TextbookForward);
    assert_eq!(solver.propagation(), PropagationLevel::None);
    // Off, it leaves plain backtracking, as it set the level to `None`.
    let solver = solver.with_textbook_forward_checking(false);
    assert_eq!(solver.config().propagation(), Propagation::None);
    let solver = solver.with_ac3(true).unwrap();
    assert_eq!(solver.config().propagation(), Propagation::Ac3);
    let solver = solver.with_ac3(false).unwrap();
    assert_eq!(solver.config().propagation(), Propagation::Full);
    // Switching off what is not on changes nothing.
    let solver = solver
        .with_propagation(PropagationLevel::Forward)
        .with_textbook_forward_checking(false)
        .with_ac3(false)
        .unwrap();
    assert_eq!(solver.config().propagation(), Propagation::Forward);
}

#[test]
fn every_solver_method_reads_back_through_the_configuration() {
    let mut model = Model::new();
    let xs = model.new_vars(3, 1..=3).unwrap();
    model.post(AllDifferent::new(&xs)).unwrap();
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let time = std::time::Duration::from_secs(60);
    let policy = cspkit::RestartPolicy::luby(10);
    let solver = model
        .solver()
        .with_propagation(PropagationLevel::Forward)
        .with_branching(Branching::Split)
        .with_decision_limit(50)
        .with_time_limit(time)
        .with_cancel_flag(flag.clone())
        .with_restarts(policy)
        .with_lns(Lns::new().with_seed(3))
        .with_decision_variables(&xs[..2])
        .unwrap()
        .with_projection(&xs[..1])
        .unwrap();
    let config = solver.config();
    assert_eq!(config.propagation(), Propagation::Forward);
    assert_eq!(config.branching(), Branching::Split);
    assert_eq!(config.decision_limit(), Some(50));
    assert_eq!(config.time_limit(), Some(time));
    assert!(std::sync::Arc::ptr_eq(config.cancel_flag().unwrap(), &flag));
    assert_eq!(config.restart_policy(), Some(policy));
    assert!(config.lns().is_some());
    assert_eq!(config.decision_variables(), &xs[..2]);
    assert_eq!(config.projection(), &xs[..1]);
    // The same options, as one value.
    let copy = model.solver_with(config.clone()).unwrap();
    assert_eq!(format!("{:?}", copy.config()), format!("{config:?}"));
    let mut counted = model.solver_with(config.clone()).unwrap();
    assert_eq!(counted.count().solutions, 3);
}

#[test]
fn a_configuration_is_checked_when_a_solver_is_made() {
    // AC-3 reads binary constraints and all-different only.
    let mut model = Model::new();
    let xs = model.new_vars(3, 0..=2).unwrap();
    model.post(AllDifferent::new(&xs)).unwrap();
    model.post((xs[0] + xs[1] + xs[2]).eq(3)).unwrap();
    let ac3 = SearchConfig::new().with_propagation(Propagation::Ac3);
    assert!(matches!(
        model.solver_with(ac3.clone()),
        Err(ModelError::NotForAc3 { .. })
    ));
    assert!(matches!(
        model.solver().with_config(ac3),
        Err(ModelError::NotForAc3 { .. })
    ));
    // Variables of another model.
    let other = Model::new().new_var(0..=1).unwrap();
    for config in [
        SearchConfig::new().with_decision_variables(&[other]),
        SearchConfig::new().with_projection(&[xs[0], other]),
    ] {
        assert!(matches!(
            model.solver_with(config),
            Err(ModelError::ForeignVariable { .. })
        ));
    }
    // The builder itself never fails: the same configuration fits the model it names.
    let fits = SearchConfig::new().with_projection(&xs[..1]);
    assert_eq!(model.solver_with(fits).unwrap().count().solutions, 3);
}

#[test]
#[should_panic(expected = "AC-3")]
fn asking_a_solver_for_ac3_on_a_model_it_cannot_read_panics() {
    let mut model = Model::new();
    let xs = model.new_vars(3, 0..=2).unwrap();
    model.post((xs[0] + xs[1] + xs[2]).eq(3)).unwrap();
    let _ = model.solver().with_propagation(Propagation::Ac3);
}

#[test]
fn a_cloned_configuration_gives_the_same_searches() {
    let queens = Queens::new(8).unwrap();
    let config = SearchConfig::new()
        .with_propagation(PropagationLevel::Forward)
        .with_decision_limit(500);
    let mut first = queens.model().solver_with(config.clone()).unwrap();
    let mut second = queens.model().solver_with(config).unwrap();
    assert_eq!(first.count(), second.count());
    assert_eq!(counts(first.stats()), counts(second.stats()));
    // Parallel searches read the same configuration.
    let threads = NonZeroUsize::new(2).unwrap();
    let config = SearchConfig::new().with_propagation(Propagation::TextbookForward);
    let mut parallel = queens.model().solver_with(config).unwrap();
    assert_eq!(parallel.count_parallel(threads).solutions, 92);
}

#[test]
fn clones_of_a_configuration_with_neighbourhoods_find_the_same_optimum() {
    // Ten items, at most 20 in weight, of the greatest value (29).
    let weights = [4, 7, 3, 9, 5, 6, 2, 8, 3, 5];
    let values = [6, 9, 4, 12, 7, 8, 3, 11, 5, 6];
    let mut model = Model::new();
    let take = model.new_vars(10, 0..=1).unwrap();
    let weight: LinearExpr = take
        .iter()
        .zip(weights)
        .map(|(&x, w)| LinearExpr::from(x) * w)
        .sum();
    let value: LinearExpr = take
        .iter()
        .zip(values)
        .map(|(&x, v)| LinearExpr::from(x) * v)
        .sum();
    model.post(weight.le(20)).unwrap();
    let lns = Lns::new().with_seed(7).with_warmup(0).with_turn(1);
    let config = SearchConfig::new().with_lns(lns);
    for config in [config.clone(), config] {
        let mut solver = model.solver_with(config).unwrap();
        let optimum = solver.maximize(value.clone()).unwrap();
        assert!(matches!(optimum, Optimum::Optimal { value: 29, .. }));
    }
}
