//! The brute force the checks compare propagation with: every solution of the scope within
//! some domains, what domain and bounds consistency leave, full assignments to test.

use super::SplitMix64;
use super::report::Propagated;
use crate::constraints::Constraint;
use crate::domain::Domain;

/// Full assignments checked per case for failure detection.
pub(super) const FULL_ASSIGNMENTS: usize = 16;

/// Every assignment of the scope's current domains that `check` accepts, in lexicographic
/// order.
pub(super) fn solutions(
    constraint: &dyn Constraint,
    scope: &[usize],
    domains: &[Domain],
) -> Vec<Vec<i32>> {
    let lists: Vec<Vec<i32>> = scope.iter().map(|&i| domains[i].iter().collect()).collect();
    let mut found = Vec::new();
    if lists.iter().any(Vec::is_empty) {
        return found;
    }
    let mut digits = vec![0usize; lists.len()];
    let mut values: Vec<i32> = lists.iter().map(|l| l[0]).collect();
    loop {
        if agrees(scope, &values) && constraint.check(&values) {
            found.push(values.clone());
        }
        let mut p = lists.len();
        loop {
            if p == 0 {
                return found;
            }
            p -= 1;
            digits[p] += 1;
            if digits[p] < lists[p].len() {
                values[p] = lists[p][digits[p]];
                break;
            }
            digits[p] = 0;
            values[p] = lists[p][0];
        }
    }
}

/// Whether the scope names a variable at two positions.
pub(super) fn has_repeats(scope: &[usize]) -> bool {
    scope
        .iter()
        .enumerate()
        .any(|(p, i)| scope[..p].contains(i))
}

/// Whether `values` gives the same value at the positions of one variable.
pub(super) fn agrees(scope: &[usize], values: &[i32]) -> bool {
    scope
        .iter()
        .enumerate()
        .all(|(p, i)| match scope[..p].iter().position(|j| j == i) {
            Some(q) => values[q] == values[p],
            None => true,
        })
}

/// How a propagation result falls short of a consistency.
pub(super) enum Gap {
    /// Some value left has no support: (variable index, value).
    Unsupported(usize, i32),
    /// No solution is left, but no conflict was reported.
    MissedConflict,
}

/// The first value left without a support among the solutions within the domains left.
pub(super) fn domain_gap(
    result: &Propagated,
    scope: &[usize],
    solutions: &[Vec<i32>],
) -> Option<Gap> {
    if result.conflict {
        return None; // soundness already checked that no solution exists
    }
    let within = |solution: &&Vec<i32>| {
        scope
            .iter()
            .zip(solution.iter())
            .all(|(&i, &v)| result.after[i].contains(v))
    };
    let left: Vec<&Vec<i32>> = solutions.iter().filter(within).collect();
    if left.is_empty() {
        return Some(Gap::MissedConflict);
    }
    for (p, &i) in scope.iter().enumerate() {
        if let Some(v) = result.after[i]
            .iter()
            .find(|&v| !left.iter().any(|s| s[p] == v))
        {
            return Some(Gap::Unsupported(i, v));
        }
    }
    None
}

/// The first bound left without a support among the assignments of the domains' hulls (bounds
/// consistency over the integers); `None` also when the hulls are too large to enumerate.
pub(super) fn bounds_gap(
    constraint: &dyn Constraint,
    result: &Propagated,
    scope: &[usize],
) -> Option<Gap> {
    const LIMIT: u64 = 1 << 20;
    if result.conflict {
        return None;
    }
    let hulls: Vec<(i32, i32)> = scope
        .iter()
        .map(|&i| (result.after[i].min(), result.after[i].max()))
        .map(|(lo, hi)| (lo.unwrap_or(0), hi.unwrap_or(-1)))
        .collect();
    let count = hulls.iter().try_fold(1u64, |n, &(lo, hi)| {
        n.checked_mul((i64::from(hi) - i64::from(lo) + 1).max(0) as u64)
    });
    if count.is_none_or(|n| n > LIMIT) {
        return None;
    }
    let mut low_seen = vec![false; scope.len()];
    let mut high_seen = vec![false; scope.len()];
    let mut values: Vec<i32> = hulls.iter().map(|&(lo, _)| lo).collect();
    'enumerate: loop {
        if agrees(scope, &values) && constraint.check(&values) {
            for (p, &(lo, hi)) in hulls.iter().enumerate() {
                low_seen[p] |= values[p] == lo;
                high_seen[p] |= values[p] == hi;
            }
        }
        let mut p = scope.len();
        loop {
            if p == 0 {
                break 'enumerate;
            }
            p -= 1;
            if values[p] < hulls[p].1 {
                values[p] += 1;
                break;
            }
            values[p] = hulls[p].0;
        }
    }
    if !low_seen.iter().any(|&seen| seen) {
        return Some(Gap::MissedConflict);
    }
    (0..scope.len()).find_map(|p| {
        if !low_seen[p] {
            Some(Gap::Unsupported(scope[p], hulls[p].0))
        } else if !high_seen[p] {
            Some(Gap::Unsupported(scope[p], hulls[p].1))
        } else {
            None
        }
    })
}

/// Whether, after `result`, every value left in the scope belongs to a solution within the
/// domains left (or the conflict was right).
pub(super) fn is_domain_consistent(
    result: &Propagated,
    scope: &[usize],
    solutions: &[Vec<i32>],
) -> bool {
    if result.conflict {
        return solutions.is_empty();
    }
    let mut supported: Vec<Vec<i32>> = vec![Vec::new(); scope.len()];
    for solution in solutions {
        if scope
            .iter()
            .zip(solution)
            .all(|(&i, &v)| result.after[i].contains(v))
        {
            for (list, &v) in supported.iter_mut().zip(solution) {
                list.push(v);
            }
        }
    }
    supported.iter_mut().zip(scope).all(|(list, &i)| {
        list.sort_unstable();
        list.dedup();
        list.len() == result.after[i].size()
    })
}

/// Up to [`FULL_ASSIGNMENTS`] full assignments of the scope's current domains: half solutions
/// (if any), the rest uniform.
pub(super) fn sample_assignments(
    scope: &[usize],
    domains: &[Domain],
    solutions: &[Vec<i32>],
    random: &mut SplitMix64,
) -> Vec<Vec<i32>> {
    let lists: Vec<Vec<i32>> = scope.iter().map(|&i| domains[i].iter().collect()).collect();
    let mut sample: Vec<Vec<i32>> = Vec::with_capacity(FULL_ASSIGNMENTS);
    if solutions.len() <= FULL_ASSIGNMENTS / 2 {
        sample.extend(solutions.iter().cloned());
    } else {
        for _ in 0..FULL_ASSIGNMENTS / 2 {
            sample.push(solutions[random.below(solutions.len() as u64) as usize].clone());
        }
    }
    while sample.len() < FULL_ASSIGNMENTS {
        let mut values: Vec<i32> = lists
            .iter()
            .map(|list| list[random.below(list.len() as u64) as usize])
            .collect();
        // The positions of one variable take the value of its first.
        for (p, i) in scope.iter().enumerate() {
            if let Some(q) = scope[..p].iter().position(|j| j == i) {
                values[p] = values[q];
            }
        }
        sample.push(values);
    }
    sample
}
