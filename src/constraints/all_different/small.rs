//! The algorithms on `u64` masks: bit `b` of `masks[i]` is value `base + b` of variable `i`.

use crate::constraints::Conflict;

const NONE: u8 = u8::MAX;

/// Value elimination to a fixpoint.
pub(crate) fn forward(masks: &mut [u64]) -> Result<u64, Conflict> {
    let (mut fixed, mut clash, mut empty) = (0u64, 0u64, false);
    for &m in masks.iter() {
        let select = u64::from(m & m.wrapping_sub(1) == 0).wrapping_neg();
        clash |= fixed & m & select;
        fixed |= m & select;
        empty |= m == 0;
    }
    if empty || clash != 0 {
        return Err(Conflict);
    }
    // Each pass removes the values fixed so far from the unfixed variables; the variables
    // it fixes give the next pass its values. Two variables fixed to the same value in one
    // pass are a conflict.
    let mut removing = fixed;
    let mut changed = 0u64;
    while removing != 0 {
        let mut newly_fixed = 0u64;
        for (i, m) in masks.iter_mut().enumerate() {
            if *m & !removing != *m && *m & m.wrapping_sub(1) != 0 {
                *m &= !removing;
                changed |= 1 << i;
                if *m & m.wrapping_sub(1) == 0 {
                    if *m == 0 || newly_fixed & *m != 0 {
                        return Err(Conflict);
                    }
                    newly_fixed |= *m;
                }
            }
        }
        removing = newly_fixed;
    }
    Ok(changed)
}

/// Régin's filtering: keeps exactly the values that belong to some maximum matching.
///
/// With a maximum matching `m` (variable `i` takes value `m(i)`), an edge `(i, v)` belongs
/// to some maximum matching exactly when `v = m(i)`, or `v` can reach a free value along
/// alternating paths, or `v` is matched to a variable `j` from which `i` can be reached,
/// closing an alternating cycle; "`j` leads to `k`" means `j` could take `m(k)` instead.
///
/// The cycles are found in value space: matched value `m(j)` leads to every other value of
/// `j`. The strongly connected components of that graph are peeled one at a time by
/// forward–backward reachability (the component of a pivot is what it reaches and what
/// reaches it), each reachability a fixpoint of word operations over the scope. A variable
/// keeps exactly the values of its component, plus the values that reach a free value.
pub(crate) fn regin(masks: &mut [u64]) -> Result<u64, Conflict> {
    if masks.len() <= 16 {
        regin_unfixed::<16>(masks)
    } else {
        regin_unfixed::<64>(masks)
    }
}

/// [`regin`] with room for `N` variables: the fixed variables are set aside (their values
/// are simply removed from the others), and the matching and components are computed over
/// the unfixed ones only, in arrays of `N` entries.
fn regin_unfixed<const N: usize>(masks: &mut [u64]) -> Result<u64, Conflict> {
    if masks.len() > N {
        return Err(Conflict);
    }
    // One branch-free pass: the values of the fixed variables, the unfixed variables, and
    // whether some domain is empty or two fixed variables share a value.
    let (mut fixed_values, mut unfixed, mut clash, mut empty) = (0u64, 0u64, 0u64, false);
    for (i, &m) in masks.iter().enumerate() {
        let single = m & m.wrapping_sub(1) == 0;
        let select = u64::from(single).wrapping_neg();
        clash |= fixed_values & m & select;
        fixed_values |= m & select;
        unfixed |= u64::from(!single) << i;
        empty |= m == 0;
    }
    if empty || clash != 0 {
        return Err(Conflict);
    }
    // The unfixed variables, renumbered `0..k`, without the fixed values.
    let mut index = [0u8; N];
    let mut doms = [0u64; N];
    let mut k = 0;
    let mut union = 0u64;
    while unfixed != 0 {
        let i = unfixed.trailing_zeros() as usize;
        unfixed &= unfixed - 1;
        let m = masks[i] & !fixed_values;
        index[k] = i as u8;
        doms[k] = m;
        union |= m;
        k += 1;
    }
    if k == 0 {
        return Ok(0);
    }
    if (union.count_ones() as usize) < k {
        return Err(Conflict);
    }
    let doms = &mut doms[..k];
    // 1. A maximum matching: greedy, then augmenting paths (Kuhn) for the rest.
    let mut mate = [NONE; N];
    let mut owner = [NONE; 64];
    let mut taken = 0u64;
    let mut unmatched = 0u64;
    for (j, &m) in doms.iter().enumerate() {
        let free = m & !taken;
        if free == 0 {
            unmatched |= 1 << j;
            continue;
        }
        let v = free.trailing_zeros() as u8;
        mate[j] = v;
        owner[v as usize] = j as u8;
        taken |= 1 << v;
    }
    if unmatched != 0 {
        while unmatched != 0 {
            let j = unmatched.trailing_zeros() as usize;
            unmatched &= unmatched - 1;
            let mut visited = 0u64;
            if !augment(j, doms, &mut mate, &mut owner, &mut visited) {
                return Err(Conflict);
            }
        }
        // Augmenting paths move values around: take the matched set afresh.
        taken = mate[..k].iter().fold(0, |t, &v| t | 1 << v);
    }
    // 2. Values that can reach a free value (`escape`), and the variables matched to them.
    let all = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
    let mut escape = union & !taken;
    let mut escaped = 0u64;
    while escape != 0 {
        let mut found = 0u64;
        let mut rows = all & !escaped;
        while rows != 0 {
            let j = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            if doms[j] & escape != 0 {
                found |= 1 << j;
                escape |= 1 << mate[j];
            }
        }
        if found == 0 {
            break;
        }
        escaped |= found;
    }
    // 3. The other variables: their matched values, split into components, each variable
    //    keeping the values of its own.
    let mut left = taken & !escape;
    while left != 0 {
        let pivot = left & left.wrapping_neg();
        // Forward: the values the pivot leads to (through the variables matched to them).
        let mut forward = pivot;
        let mut frontier = pivot;
        while frontier != 0 {
            let mut next = 0u64;
            while frontier != 0 {
                let v = frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                next |= doms[owner[v] as usize];
            }
            frontier = next & left & !forward;
            forward |= frontier;
        }
        // Backward, within the forward set: the values that lead to the pivot.
        let mut component = pivot;
        loop {
            let before = component;
            let mut values = forward & !component;
            while values != 0 {
                let v = values.trailing_zeros() as usize;
                values &= values - 1;
                if doms[owner[v] as usize] & component != 0 {
                    component |= 1 << v;
                }
            }
            if component == before {
                break;
            }
        }
        left &= !component;
        let mut values = component;
        while values != 0 {
            let v = values.trailing_zeros() as usize;
            values &= values - 1;
            doms[owner[v] as usize] &= component;
        }
    }
    // 4. Escaped variables keep their matched value and the values that reach a free one.
    let mut rows = escaped;
    while rows != 0 {
        let j = rows.trailing_zeros() as usize;
        rows &= rows - 1;
        doms[j] &= escape | 1 << mate[j];
    }
    let mut changed = 0u64;
    for (&i, &m) in index.iter().zip(doms.iter()) {
        if masks[i as usize] != m {
            masks[i as usize] = m;
            changed |= 1 << i;
        }
    }
    Ok(changed)
}

/// Tries to match variable `i` by an augmenting path; `visited` holds the values tried.
fn augment(
    i: usize,
    masks: &[u64],
    mate: &mut [u8],
    owner: &mut [u8; 64],
    visited: &mut u64,
) -> bool {
    let mut candidates = masks[i] & !*visited;
    while candidates != 0 {
        let v = candidates.trailing_zeros() as u8;
        candidates &= candidates - 1;
        *visited |= 1 << v;
        let holder = owner[v as usize];
        if holder == NONE || augment(holder as usize, masks, mate, owner, visited) {
            owner[v as usize] = i as u8;
            mate[i] = v;
            return true;
        }
        candidates &= !*visited;
    }
    false
}
