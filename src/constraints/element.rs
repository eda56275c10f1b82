//! Element: `value = array[index]`, with the index a variable.

use smallvec::SmallVec;

use crate::constraints::words;
use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// `value = array[index]`: the variable `value` equals the entry of `array` at the position
/// held by the variable `index`. Positions start at 0; index values outside `0..array.len()`
/// belong to no solution and are pruned (at every level but `None`, which only checks).
///
/// The array holds constants ([`Element::new`]) or variables ([`Element::with_variables`]).
/// This is how a model looks something up: the cost of the item chosen, the colour of the
/// cell a pointer designates, the next city of a tour.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when `index` is fixed to a position outside the array, or when `index`,
///   `value` and the entry it designates are all fixed and differ; prunes nothing.
/// - `Forward`: prunes `index` to the positions of the array; when `value` is fixed to `v`,
///   keeps the positions whose entry can be `v`; when `index` is fixed to `k`, makes the
///   domains of `value` and of `array[k]` equal to their intersection. Wakes only when a
///   variable is fixed.
/// - `Full`: keeps a position `k` of `index` when the domains of `value` and `array[k]` meet,
///   and a value `v` of `value` when some remaining position can hold `v`; when `index` is
///   fixed to `k`, intersects `value` and `array[k]` as above. For an array of constants this
///   is domain consistency on `index` and `value` (the only variables), in one call, except
///   that a domain of `value` wider than [`Domain::MAX_SPAN`] keeps only its bounds while more
///   than 65,536 distinct entries remain (each gap would be a hole kept in it). For an
///   array of variables that are distinct from each other and from `index` and `value`, it is
///   domain consistency on every variable, in one call: an entry not designated by a fixed
///   index is free, because another position can serve. When variables repeat (say
///   `z = [x, x, y][i]`, or `z` itself inside the array), the same rules stay sound but may
///   keep values without support, and a second call may prune more.
///
/// Cost: O(n) for `n` positions left in `index`, plus, for an array of constants, a sort of
/// the designated entries (O(n log n)); for an array of variables, O(n·d) domain look-ups
/// for domains of `d` values. Scratch space is allocated only for arrays longer than 64.
///
/// # Examples
///
/// ```
/// use cspkit::{Element, Model};
///
/// // Prices of four items; pick an item that costs exactly 7.
/// let prices = [5, 7, 3, 7];
/// let mut model = Model::new();
/// let item = model.new_var(0..=9)?; // positions 4..=9 are pruned
/// let cost = model.new_var(6..=10)?;
/// model.post(Element::new(&prices, item, cost))?;
/// model.fix(cost, 7)?;
/// let solution = model.solve().solution().unwrap();
/// assert_eq!(solution[item], 1);
/// assert_eq!(model.solver().count().solutions, 2); // items 1 and 3
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Element {
    /// `[index, value, distinct array variables…]`.
    scope: Vec<VarId>,
    array: Array,
}

#[derive(Debug, Clone)]
enum Array {
    Constants(Vec<i32>),
    /// For each position, the position in the scope of its variable.
    Variables {
        slots: Vec<u32>,
        /// Whether a variable appears twice among the index, the value and the array.
        aliased: bool,
    },
}

const INDEX: usize = 0;
const VALUE: usize = 1;

impl Element {
    /// `value = array[index]` for an array of constants. An empty array makes the constraint
    /// unsatisfiable.
    pub fn new(array: &[i32], index: VarId, value: VarId) -> Element {
        Element {
            scope: vec![index, value],
            array: Array::Constants(array.to_vec()),
        }
    }

    /// `value = array[index]` for an array of variables. The array may name a variable more
    /// than once, and may contain `index` or `value` (see the type's documentation for what
    /// that costs in strength); `index` and `value` may be one variable.
    pub fn with_variables(array: &[VarId], index: VarId, value: VarId) -> Element {
        let mut scope = vec![index, value];
        let mut aliased = false;
        let slots = array
            .iter()
            .map(|&var| match scope.iter().position(|&s| s == var) {
                Some(slot) => {
                    aliased = true;
                    slot as u32
                }
                None => {
                    scope.push(var);
                    (scope.len() - 1) as u32
                }
            })
            .collect();
        Element {
            scope,
            array: Array::Variables { slots, aliased },
        }
    }

    /// The reason of the removal of `removed` from `var` (the index and the value two
    /// variables) by an array of constants (see [`Constraint::explain`]).
    fn constant_reason(
        &self,
        array: &[i32],
        var: VarId,
        removed: i32,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        use crate::kernel::Literal;
        let (index, value) = (self.scope[INDEX], self.scope[VALUE]);
        if var == index {
            // Position `removed` holds an entry the value has lost.
            let entry = *array.get(usize::try_from(removed).ok()?)?;
            if ctx.domain(value).contains(entry) {
                return None;
            }
            Some(if ctx.initial(value).contains(entry) {
                vec![Literal::Ne(value, entry)]
            } else {
                Vec::new()
            })
        } else if var == value {
            // Every position holding `removed` is gone from the index.
            let holding = |i: i32| {
                usize::try_from(i)
                    .ok()
                    .and_then(|k| array.get(k))
                    .is_some_and(|&entry| entry == removed)
            };
            if ctx.domain(index).iter().any(holding) {
                return None;
            }
            Some(
                ctx.initial(index)
                    .iter()
                    .filter(|&i| holding(i))
                    .map(|i| Literal::Ne(index, i))
                    .collect(),
            )
        } else {
            None
        }
    }

    /// The reason of the removal of `removed` from `var` (the index and the value two
    /// variables) by an array of variables whose positions are `slots` in the scope (see
    /// [`Constraint::explain`]), or `None` (an inference drawn otherwise).
    fn variable_reason(
        &self,
        slots: &[u32],
        var: VarId,
        removed: i32,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        use crate::kernel::Literal;
        // An array may name a variable twice; one that names `index` or `value` is propagated
        // more weakly, and these reasons could claim more than the propagation draws.
        if slots
            .iter()
            .any(|&s| s as usize == INDEX || s as usize == VALUE)
        {
            return None;
        }
        let (index, value) = (self.scope[INDEX], self.scope[VALUE]);
        let entry = |k: usize| self.scope[slots[k] as usize];
        let positions = || {
            (0..self.len())
                .filter(move |&k| i32::try_from(k).is_ok_and(|k| ctx.initial(index).contains(k)))
        };
        let mut reason = Vec::new();
        if var == index {
            // Position `removed` holds an entry with no value in common with `value`.
            let Some(k) = usize::try_from(removed).ok().filter(|&k| k < self.len()) else {
                return Some(reason); // no position: a fact of the constraint
            };
            self.apart(entry(k), ctx, &mut reason)?;
        } else if var == value {
            // Every position still possible holds an entry without the value; a position the
            // index has lost is named by its entry's literal when that entry is named anyway.
            let holds = |k: usize| ctx.initial(entry(k)).contains(removed);
            let possible = |k: usize| ctx.domain(index).contains(k as i32);
            let named: SmallVec<[VarId; 16]> = positions()
                .filter(|&k| holds(k) && possible(k))
                .map(entry)
                .collect();
            for k in positions().filter(|&k| holds(k)) {
                let lacks = !ctx.domain(entry(k)).contains(removed);
                if possible(k) || (lacks && named.contains(&entry(k))) {
                    if !lacks {
                        // The run took the position from the index itself.
                        return None;
                    }
                    reason.push(Literal::Ne(entry(k), removed));
                } else {
                    reason.push(Literal::Ne(index, k as i32));
                }
                if reason.len() > MAX_REASON {
                    return None;
                }
            }
        } else {
            // The index is fixed to a position of this entry (as the domains stood, or once
            // the run took the other positions apart from `value`), and `value` lacks the
            // value.
            if ctx.domain(value).contains(removed) {
                return None;
            }
            let fixed_to = |k: usize| {
                let mut because = Vec::new();
                for other in positions().filter(|&other| other != k) {
                    let at = i32::try_from(other).ok()?;
                    if ctx.domain(index).contains(at) {
                        self.apart(entry(other), ctx, &mut because)?;
                    } else {
                        because.push(Literal::Ne(index, at));
                    }
                }
                Some(because)
            };
            reason = positions()
                .filter(|&k| entry(k) == var && ctx.domain(index).contains(k as i32))
                .find_map(fixed_to)?;
            if ctx.initial(value).contains(removed) {
                reason.push(Literal::Ne(value, removed));
            }
        }
        reason.sort_unstable();
        reason.dedup();
        Some(reason)
    }

    /// The literals that keep `entry` and `value` apart (no value in common), if their domains
    /// are.
    fn apart(
        &self,
        entry: VarId,
        ctx: &crate::kernel::ExplainContext<'_>,
        reason: &mut Vec<crate::kernel::Literal>,
    ) -> Option<()> {
        use crate::kernel::Literal;
        let value = self.scope[VALUE];
        let (e, v) = (ctx.initial(entry), ctx.initial(value));
        let (small, large) = if e.size() <= v.size() { (e, v) } else { (v, e) };
        if small.size() > MAX_REASON {
            return None;
        }
        for x in small.iter().filter(|&x| large.contains(x)) {
            if !ctx.domain(value).contains(x) {
                reason.push(Literal::Ne(value, x));
            } else if !ctx.domain(entry).contains(x) {
                reason.push(Literal::Ne(entry, x));
            } else {
                return None;
            }
        }
        Some(())
    }

    fn len(&self) -> usize {
        match &self.array {
            Array::Constants(values) => values.len(),
            Array::Variables { slots, .. } => slots.len(),
        }
    }

    /// The positions still possible for `index`, within the array.
    fn positions(&self, ctx: &PropagationContext<'_>) -> SmallVec<[usize; 64]> {
        let len = self.len() as i64;
        ctx.domain(self.scope[INDEX])
            .iter()
            .filter(|&k| (0..len).contains(&i64::from(k)))
            .map(|k| k as usize)
            .collect()
    }

    /// Prunes index values outside `0..len`.
    fn prune_outside(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let index = self.scope[INDEX];
        if self.len() == 0 {
            return Err(Conflict);
        }
        let last = i32::try_from(self.len() - 1).unwrap_or(i32::MAX);
        ctx.remove_below(index, 0)?;
        ctx.remove_above(index, last)?;
        Ok(())
    }

    fn propagate_none(&self, ctx: &PropagationContext<'_>) -> Result<(), Conflict> {
        let Some(k) = ctx.value(self.scope[INDEX]) else {
            return Ok(());
        };
        let Some(k) = usize::try_from(k).ok().filter(|&k| k < self.len()) else {
            return Err(Conflict);
        };
        let entry = match &self.array {
            Array::Constants(values) => Some(values[k]),
            Array::Variables { slots, .. } => ctx.value(self.scope[slots[k] as usize]),
        };
        match (entry, ctx.value(self.scope[VALUE])) {
            (Some(a), Some(z)) if a != z => Err(Conflict),
            _ => Ok(()),
        }
    }

    /// With `index` fixed to `k`: `value` and `array[k]` keep their common values.
    fn equate_designated(
        &self,
        ctx: &mut PropagationContext<'_>,
        k: usize,
    ) -> Result<(), Conflict> {
        let value = self.scope[VALUE];
        match &self.array {
            Array::Constants(values) => {
                ctx.fix(value, values[k])?;
            }
            Array::Variables { slots, .. } => {
                let entry = self.scope[slots[k] as usize];
                if entry != value {
                    intersect(ctx, value, entry)?;
                    intersect(ctx, entry, value)?;
                }
            }
        }
        Ok(())
    }

    fn propagate_forward(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [index, value] = [self.scope[INDEX], self.scope[VALUE]];
        self.prune_outside(ctx)?;
        if let Some(z) = ctx.value(value) {
            match &self.array {
                Array::Constants(values) => {
                    ctx.retain(index, |k| values[k as usize] == z)?;
                }
                Array::Variables { slots, .. } => {
                    let entries: SmallVec<[bool; 64]> = slots
                        .iter()
                        .map(|&s| ctx.domain(self.scope[s as usize]).contains(z))
                        .collect();
                    ctx.retain(index, |k| entries[k as usize])?;
                }
            }
        }
        if let Some(k) = ctx.value(index) {
            self.equate_designated(ctx, k as usize)?;
        }
        Ok(())
    }

    fn propagate_full(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let [index, value] = [self.scope[INDEX], self.scope[VALUE]];
        self.prune_outside(ctx)?;
        if let Array::Constants(values) = &self.array {
            return self.propagate_full_constants(ctx, values);
        }
        // Positions whose entry can equal the value.
        let positions = self.positions(ctx);
        let supported: SmallVec<[usize; 64]> = match &self.array {
            Array::Constants(_) => unreachable!("handled above"),
            Array::Variables { slots, .. } => positions
                .iter()
                .copied()
                .filter(|&k| {
                    words::meet(ctx.domain(value), ctx.domain(self.scope[slots[k] as usize]))
                })
                .collect(),
        };
        if supported.len() < positions.len() {
            ctx.retain(index, |k| supported.binary_search(&(k as usize)).is_ok())?;
        }
        // Values some remaining position can hold.
        match &self.array {
            Array::Constants(_) => unreachable!("handled above"),
            Array::Variables { slots, .. } => {
                let entries: SmallVec<[VarId; 64]> = supported
                    .iter()
                    .map(|&k| self.scope[slots[k] as usize])
                    .collect();
                if entries.contains(&value) {
                    // `value` is an entry: every value it holds is held by an entry.
                } else if ctx.domain(value).is_bitset()
                    && entries.iter().all(|&e| ctx.domain(e).is_bitset())
                {
                    // The union of the entries' domains, a word at a time.
                    words::keep_masked(ctx, value, |ctx, base| {
                        entries
                            .iter()
                            .fold(0, |held, &e| held | ctx.domain(e).window(base as i32))
                    })?;
                } else {
                    // Keep `v` if some entry's domain holds it. Read the entries' domains
                    // first: `retain` borrows the context mutably.
                    let keep: SmallVec<[i32; 64]> = ctx
                        .domain(value)
                        .iter()
                        .filter(|&v| entries.iter().any(|&e| ctx.domain(e).contains(v)))
                        .collect();
                    if keep.len() < ctx.domain(value).size() {
                        ctx.retain_sorted(value, &keep)?;
                    }
                }
            }
        }
        if let Some(k) = ctx.value(index) {
            self.equate_designated(ctx, k as usize)?;
        }
        Ok(())
    }
}

impl Element {
    /// `Full` for an array of constants, in one list of 4 bytes per position kept: the
    /// positions whose entry is still a value of `value`, read from the domain of `index`, then
    /// (sorted) the entries they hold.
    fn propagate_full_constants(
        &self,
        ctx: &mut PropagationContext<'_>,
        values: &[i32],
    ) -> Result<(), Conflict> {
        let [index, value] = [self.scope[INDEX], self.scope[VALUE]];
        let (domain, positions) = (ctx.domain(value), ctx.domain(index));
        let mut total = 0;
        let mut kept: SmallVec<[i32; 64]> = SmallVec::new();
        for k in positions.iter() {
            total += 1;
            if domain.contains(values[k as usize]) {
                kept.push(k);
            }
        }
        if kept.len() < total {
            ctx.retain_sorted(index, &kept)?;
        }
        // Values some remaining position can hold.
        for k in &mut kept {
            *k = values[*k as usize];
        }
        kept.sort_unstable();
        kept.dedup();
        let entries = kept;
        let (Some(&low), Some(&high)) = (entries.first(), entries.last()) else {
            return Err(Conflict);
        };
        let domain = ctx.domain(value);
        let wide = match (domain.min(), domain.max()) {
            (Some(min), Some(max)) => i64::from(max) - i64::from(min) >= Domain::MAX_SPAN as i64,
            _ => false,
        };
        if wide && entries.len() > WIDE_GAPS {
            // Each gap between two entries would be a hole kept in the domain: the bounds only.
            ctx.remove_below(value, low)?;
            ctx.remove_above(value, high)?;
        } else if entries.len() < ctx.domain(value).size() {
            ctx.retain_sorted(value, &entries)?;
        }
        Ok(())
    }
}

/// The longest reason an array of variables gives (the domains can be wide); past it, the
/// constraint's own propagation minimizes one.
const MAX_REASON: usize = 4096;

/// The most entries the domain of `value` is reduced to when it is wide (more than
/// [`Domain::MAX_SPAN`] values apart): past it, only its bounds move, since each gap between
/// two entries would become a hole kept in the domain (an array of ten million entries would
/// make ten million holes).
const WIDE_GAPS: usize = 1 << 16;

/// Keeps in the domain of `target` only the values of `source`.
fn intersect(
    ctx: &mut PropagationContext<'_>,
    target: VarId,
    source: VarId,
) -> Result<(), Conflict> {
    if ctx.domain(target).is_bitset() && ctx.domain(source).is_bitset() {
        return words::keep_within(ctx, target, source, false).map(|_| ());
    }
    // The intersection, read from the smaller domain (one of them may be wide).
    let (t, s) = (ctx.domain(target), ctx.domain(source));
    let (small, large) = if t.size() <= s.size() { (t, s) } else { (s, t) };
    let keep: SmallVec<[i32; 64]> = small.iter().filter(|&v| large.contains(v)).collect();
    if keep.len() < ctx.domain(target).size() {
        ctx.retain_sorted(target, &keep)?;
    }
    Ok(())
}

impl Constraint for Element {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// For an array of constants: `index ≠ i` because `value ≠ array[i]`, and `value ≠ v`
    /// because the index has lost every position holding `v`. For an array of variables that
    /// names neither `index` nor `value`: `index ≠ i` because the entry at `i` and `value` have
    /// no value in common; `value ≠ v` because every position left holds an entry without
    /// `v`; an entry's value removed because the index is fixed to its position and `value`
    /// lacks it.
    /// Otherwise (a failure, an inference drawn otherwise) the scope's domains cut down by the
    /// constraint's own propagation ([`minimized_reason`](crate::kernel::minimized_reason)).
    fn explain(
        &self,
        inference: crate::kernel::Inference,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        if let crate::kernel::Inference::Removed { var, value } = inference
            && self.scope[INDEX] != self.scope[VALUE]
        {
            let own = match &self.array {
                Array::Constants(array) => self.constant_reason(array, var, value, ctx),
                Array::Variables { slots, .. } => self.variable_reason(slots, var, value, ctx),
            };
            if own.is_some() {
                return own;
            }
        }
        crate::kernel::minimized_reason(self, inference, ctx)
    }

    fn check(&self, values: &[i32]) -> bool {
        let Some(k) = usize::try_from(values[INDEX])
            .ok()
            .filter(|&k| k < self.len())
        else {
            return false;
        };
        let entry = match &self.array {
            Array::Constants(array) => array[k],
            Array::Variables { slots, .. } => values[slots[k] as usize],
        };
        entry == values[VALUE]
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        match ctx.level() {
            PropagationLevel::None => self.propagate_none(ctx),
            PropagationLevel::Forward => self.propagate_forward(ctx),
            PropagationLevel::Full => self.propagate_full(ctx),
        }
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        match level {
            PropagationLevel::Full => WakeOn::AnyChange,
            _ => WakeOn::Fixed,
        }
    }

    fn is_idempotent(&self, _level: PropagationLevel) -> bool {
        !matches!(self.array, Array::Variables { aliased: true, .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Model;

    fn propagate(
        constraint: &Element,
        domains: &[Vec<i32>],
        level: PropagationLevel,
    ) -> Result<Vec<Vec<i32>>, Conflict> {
        crate::constraints::propagate_once(constraint, domains, level)
    }

    #[test]
    fn positions_start_at_zero_and_outside_ones_are_pruned() {
        let mut model = Model::new();
        let [i, z] = [
            model.new_var(-2..=5).unwrap(),
            model.new_var(0..=9).unwrap(),
        ];
        let element = Element::new(&[4, 6, 4], i, z);
        assert!(element.check(&[0, 4]) && element.check(&[1, 6]) && element.check(&[2, 4]));
        assert!(!element.check(&[-1, 4]) && !element.check(&[3, 4]) && !element.check(&[1, 4]));
        let domains = [(-2..=5).collect(), (0..=9).collect()];
        assert_eq!(
            propagate(&element, &domains, PropagationLevel::Full),
            Ok(vec![vec![0, 1, 2], vec![4, 6]])
        );
        assert_eq!(
            propagate(&element, &domains, PropagationLevel::Forward),
            Ok(vec![vec![0, 1, 2], (0..=9).collect()])
        );
        assert_eq!(
            propagate(&element, &[vec![3], vec![4]], PropagationLevel::None),
            Err(Conflict)
        );
    }

    #[test]
    fn a_fixed_value_keeps_the_positions_holding_it() {
        let mut model = Model::new();
        let [i, z] = [model.new_var(0..=3).unwrap(), model.new_var(0..=9).unwrap()];
        let element = Element::new(&[4, 6, 4, 5], i, z);
        for level in [PropagationLevel::Forward, PropagationLevel::Full] {
            assert_eq!(
                propagate(&element, &[(0..=3).collect(), vec![4]], level),
                Ok(vec![vec![0, 2], vec![4]])
            );
        }
    }

    #[test]
    fn a_fixed_index_equates_the_value_and_the_designated_variable() {
        let mut model = Model::new();
        let vars = model.new_vars(4, 0..=9).unwrap();
        let (i, z, a, b) = (vars[0], vars[1], vars[2], vars[3]);
        let element = Element::with_variables(&[a, b], i, z);
        let domains = [vec![1], vec![2, 3, 4], vec![0, 1], vec![3, 4, 5]];
        for level in [PropagationLevel::Forward, PropagationLevel::Full] {
            assert_eq!(
                propagate(&element, &domains, level),
                Ok(vec![vec![1], vec![3, 4], vec![0, 1], vec![3, 4]])
            );
        }
        // Full: position 0 cannot hold any value of z.
        let domains = [vec![0, 1], vec![2, 3, 4], vec![0, 1], vec![3, 4, 5]];
        assert_eq!(
            propagate(&element, &domains, PropagationLevel::Full),
            Ok(vec![vec![1], vec![3, 4], vec![0, 1], vec![3, 4]])
        );
    }

    #[test]
    fn an_array_may_repeat_a_variable() {
        let mut model = Model::new();
        let vars = model.new_vars(3, 0..=2).unwrap();
        let (i, z, x) = (vars[0], vars[1], vars[2]);
        let element = Element::with_variables(&[x, z, x], i, z);
        assert_eq!(element.scope(), &[i, z, x]);
        assert!(!element.is_idempotent(PropagationLevel::Full));
        // z = [x, z, x][i]: i = 1 always works; i ∈ {0, 2} needs z = x.
        assert!(element.check(&[1, 2, 0]));
        assert!(element.check(&[2, 1, 1]) && !element.check(&[2, 1, 0]));
    }

    #[test]
    fn an_empty_array_has_no_solution() {
        let mut model = Model::new();
        let [i, z] = [model.new_var(0..=2).unwrap(), model.new_var(0..=2).unwrap()];
        let element = Element::new(&[], i, z);
        assert!(!element.check(&[0, 0]));
        let domains = [vec![0, 1, 2], vec![0, 1, 2]];
        for level in [PropagationLevel::Forward, PropagationLevel::Full] {
            assert_eq!(propagate(&element, &domains, level), Err(Conflict));
        }
    }
}
