//! Job shops: which variable order finds a schedule, in the library and in the searches of
//! FlatZinc models, on Lawrence's la07 (15 jobs, 5 machines, optimal makespan 890).

use crate::common::JobShop;

use cspkit::flatzinc::{self, FznModel, Goal, Options, Status};
use cspkit::{
    Ascending, Disjunctive, DomWdeg, LinearExpr, Model, Optimum, RestartPolicy, SearchObserver,
    SmallestMinimum, VarId,
};

/// The job shop as a model: a start per task (job by job, in order) over `0..=horizon`, each
/// task after the one before it in its job, one `Disjunctive` per machine, and the makespan
/// as the largest end of a job. Returns the model, the starts and the makespan.
fn job_shop_model(shop: &JobShop) -> (Model, Vec<Vec<VarId>>, VarId) {
    let mut model = Model::new();
    let horizon = shop.horizon();
    let starts: Vec<Vec<VarId>> = shop
        .jobs
        .iter()
        .map(|job| model.new_vars(job.len(), 0..=horizon).unwrap())
        .collect();
    let mut ends = Vec::new();
    for (job, start) in shop.jobs.iter().zip(&starts) {
        for k in 1..job.len() {
            let after = (LinearExpr::from(start[k - 1]) + job[k - 1].1).le(start[k]);
            model.post(after).unwrap();
        }
        let last = job.len() - 1;
        ends.push(
            model
                .var_for(LinearExpr::from(start[last]) + job[last].1)
                .unwrap(),
        );
    }
    for machine in 0..shop.machines {
        let tasks = shop.tasks_on(machine);
        let on: Vec<VarId> = tasks.iter().map(|&(j, k)| starts[j][k]).collect();
        let durations: Vec<i32> = tasks.iter().map(|&(j, k)| shop.jobs[j][k].1).collect();
        model
            .post(Disjunctive::new(&on, &durations).unwrap())
            .unwrap();
    }
    let makespan = model.max(&ends).unwrap();
    (model, starts, makespan)
}

/// Whether `start` (per job, per task) is a schedule of `shop` of makespan `makespan`: each
/// task after the one before it in its job, no two tasks on a machine at once, every task
/// ended by the makespan. Checked on the data, not through the model's constraints.
fn is_schedule(shop: &JobShop, start: &[Vec<i32>], makespan: i64) -> bool {
    let in_order = shop.jobs.iter().zip(start).all(|(job, s)| {
        (1..job.len()).all(|k| s[k - 1] + job[k - 1].1 <= s[k])
            && i64::from(s[job.len() - 1] + job[job.len() - 1].1) <= makespan
    });
    let apart = (0..shop.machines).all(|machine| {
        let tasks = shop.tasks_on(machine);
        tasks.iter().enumerate().all(|(i, &(j1, k1))| {
            tasks[i + 1..].iter().all(|&(j2, k2)| {
                start[j1][k1] + shop.jobs[j1][k1].1 <= start[j2][k2]
                    || start[j2][k2] + shop.jobs[j2][k2].1 <= start[j1][k1]
            })
        })
    });
    in_order && apart
}

#[test]
fn smallest_minimum_finds_a_first_schedule_of_la07_without_a_failure() {
    let shop = JobShop::la07();
    let (model, starts, makespan) = job_shop_model(&shop);
    let mut solver = model
        .solver()
        .with_variable_order(SmallestMinimum)
        .with_decision_limit(10_000);
    let solution = solver.next_solution().solution().expect("a schedule");
    assert_eq!(solver.stats().failures, 0);
    let start: Vec<Vec<i32>> = starts
        .iter()
        .map(|job| job.iter().map(|&s| solution[s]).collect())
        .collect();
    assert!(is_schedule(&shop, &start, i64::from(solution[makespan])));
}

#[test]
fn smallest_minimum_proves_the_known_optimum_of_la07() {
    let shop = JobShop::la07();
    let (model, starts, makespan) = job_shop_model(&shop);
    let mut solver = model
        .solver()
        .with_variable_order(SmallestMinimum)
        .with_decision_limit(20_000);
    let optimum = solver.minimize(makespan).unwrap();
    let Optimum::Optimal { solution, value } = optimum else {
        panic!("not proved within 20,000 decisions: {optimum:?}");
    };
    assert_eq!(value, 890);
    let start: Vec<Vec<i32>> = starts
        .iter()
        .map(|job| job.iter().map(|&s| solution[s]).collect())
        .collect();
    assert!(is_schedule(&shop, &start, value));
}

#[test]
fn the_default_search_finds_a_first_schedule_of_la07_within_a_hundred_decisions() {
    let shop = JobShop::la07();
    let (model, _, makespan) = job_shop_model(&shop);
    let mut solver = model.solver().with_decision_limit(100);
    let optimum = solver.minimize(makespan).unwrap();
    assert!(optimum.best().is_some(), "{optimum:?}");
}

/// The la07 FlatZinc (one `cspkit_disjunctive` per machine, no search annotation), built.
fn la07_flatzinc() -> FznModel {
    let text = JobShop::la07().flatzinc();
    flatzinc::build(&flatzinc::parse(&text).unwrap()).unwrap()
}

#[test]
fn flatzinc_start_times_are_the_starts_of_the_scheduling_constraints() {
    let fzn = la07_flatzinc();
    assert_eq!(fzn.start_times().len(), 75);
    let name = fzn.model().var_name(fzn.start_times()[0]).into_owned();
    assert_eq!(name, "s_0_0");
    // Its decisions are the starts and the makespan, the objective.
    assert!(fzn.is_scheduling());
    // Tasks of variable durations are not counted: their starts are not all there is to
    // decide.
    let text = "var 0..9: a;\nvar 0..9: b;\nvar 1..3: d;\n\
                constraint cspkit_disjunctive([a, b], [2, d], false);\nsolve satisfy;\n";
    let fzn = flatzinc::build(&flatzinc::parse(text).unwrap()).unwrap();
    assert!(fzn.start_times().is_empty());
    assert!(!fzn.is_scheduling());
}

#[test]
fn a_flatzinc_job_shop_without_annotations_is_scheduled_within_a_thousand_decisions() {
    // The order of `cspkit fzn` on a model without annotations: once the start times were
    // left to smallest domain first, which made no schedule in 20,000 decisions.
    let fzn = la07_flatzinc();
    let mut solver = fzn
        .model()
        .solver()
        .with_variable_order(fzn.variable_order())
        .with_value_order(fzn.value_order(0))
        .with_decision_limit(1000);
    let mut out = Vec::new();
    let status = flatzinc::solve(&fzn, &Options::default(), &mut solver, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_ne!(status, Status::Unknown, "{out}");
    assert!(out.contains("t_end = "), "{out}");
}

#[test]
fn free_search_proves_a_flatzinc_job_shop_optimal_within_two_thousand_decisions() {
    // fzn-cspkit's free search, without the neighbourhoods.
    let fzn = la07_flatzinc();
    let mut solver = fzn
        .model()
        .solver()
        .with_variable_order(fzn.free_variable_order())
        .with_value_order(Ascending)
        .with_restarts(RestartPolicy::luby(100))
        .with_decision_limit(2000);
    let mut out = Vec::new();
    let status = flatzinc::solve(&fzn, &Options::default(), &mut solver, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(status, Status::Complete, "{out}");
    assert!(out.contains("t_end = 890;"), "{out}");
}

/// The decisions of a search, in order.
#[derive(Default)]
struct Decisions(Vec<(VarId, i32)>);

impl SearchObserver for Decisions {
    fn decision(&mut self, var: VarId, value: i32, _depth: usize) {
        self.0.push((var, value));
    }
}

#[test]
fn free_search_leaves_start_times_to_dom_wdeg_when_other_decisions_remain() {
    // Two tasks on one machine, and a choice that is not a start time: dom/wdeg branches on
    // it first (two values). With only the tasks' starts to decide, the earliest start comes
    // first (`a`, though `b` has fewer values).
    let with_choice = "var 0..20: a :: output_var;\nvar 5..10: b :: output_var;\n\
                       var 1..2: m :: output_var;\n\
                       constraint cspkit_disjunctive([a, b], [3, 4], false);\n\
                       constraint int_lin_le([1, 1], [a, m], 10);\nsolve minimize b;\n";
    let first = |text: &str| {
        let fzn = flatzinc::build(&flatzinc::parse(text).unwrap()).unwrap();
        let mut solver = fzn
            .model()
            .solver()
            .with_variable_order(fzn.free_variable_order())
            .with_observer(Decisions::default());
        let Goal::Optimize { objective, .. } = fzn.goal() else {
            unreachable!("an optimisation")
        };
        let _ = solver.minimize(objective.clone()).unwrap();
        let (var, _) = *solver.observer().0.first().expect("a decision");
        fzn.model().var_name(var).into_owned()
    };
    let is_scheduling = |text: &str| {
        flatzinc::build(&flatzinc::parse(text).unwrap())
            .unwrap()
            .is_scheduling()
    };
    assert!(!is_scheduling(with_choice));
    assert_eq!(first(with_choice), "m");
    let without = with_choice
        .replace("var 1..2: m :: output_var;\n", "")
        .replace("int_lin_le([1, 1], [a, m], 10)", "int_le(a, 9)");
    assert!(is_scheduling(&without));
    assert_eq!(first(&without), "a");
}

#[test]
fn free_search_of_a_model_without_tasks_makes_the_decisions_of_dom_wdeg() {
    let text = "var 1..5: x :: output_var;\nvar 1..3: y :: output_var;\n\
                var 1..4: z :: output_var;\nconstraint int_lin_le([1, 1, 1], [x, y, z], 7);\n\
                constraint int_ne(x, z);\nsolve satisfy;\n";
    let fzn = flatzinc::build(&flatzinc::parse(text).unwrap()).unwrap();
    assert!(fzn.start_times().is_empty());
    let decisions = |order: Box<dyn cspkit::VariableOrder>| {
        let mut solver = fzn
            .model()
            .solver()
            .with_variable_order(order)
            .with_observer(Decisions::default());
        assert_eq!(solver.count().solutions, 23);
        solver.into_observer().0
    };
    let free = decisions(Box::new(fzn.free_variable_order()));
    assert!(!free.is_empty());
    assert_eq!(free, decisions(Box::new(DomWdeg::new())));
}
