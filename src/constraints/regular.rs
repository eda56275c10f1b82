//! Sequences accepted by a finite automaton.

use smallvec::SmallVec;

use crate::constraints::{Conflict, Constraint, PropagationContext, WakeOn, check_then_any_change};
use crate::error::ModelError;
use crate::ids::VarId;
use crate::kernel::PropagationLevel;

/// A deterministic finite automaton over integer values: states `0..states`, a start state,
/// accepting states, and at most one transition per state and value (a missing transition
/// rejects).
///
/// # Examples
///
/// ```
/// use cspkit::Dfa;
///
/// // Words over {0, 1} without two 1s in a row: state 1 means "just read a 1".
/// let dfa = Dfa::new(2, 0, &[0, 1], &[(0, 0, 0), (0, 1, 1), (1, 0, 0)])?;
/// assert!(dfa.accepts(&[1, 0, 1]) && !dfa.accepts(&[0, 1, 1]));
/// // A Nonogram clue "2 1": a block of two, a gap, a block of one.
/// let clue = Dfa::blocks(&[2, 1]);
/// assert!(clue.accepts(&[0, 1, 1, 0, 0, 1]) && !clue.accepts(&[1, 1, 1, 0, 1, 0]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dfa {
    states: usize,
    start: usize,
    accepting: Vec<bool>,
    /// The values with a transition, ascending.
    alphabet: Vec<i32>,
    /// `next[state · |alphabet| + symbol]`, `u32::MAX` where there is no transition.
    next: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Dfa {
    /// The automaton with `states` states, the given start and accepting states, and
    /// `transitions` as `(from, value, to)`.
    ///
    /// # Errors
    ///
    /// [`ModelError::InvalidConstraint`] if a state is out of range or a state has two
    /// transitions on one value (the automaton would not be deterministic).
    pub fn new(
        states: usize,
        start: usize,
        accepting: &[usize],
        transitions: &[(usize, i32, usize)],
    ) -> Result<Dfa, ModelError> {
        let invalid = |reason: String| ModelError::InvalidConstraint {
            constraint: "Regular".into(),
            reason,
        };
        let out_of_range = |what: &str, state: usize| {
            invalid(format!(
                "{what} state {state} is out of range (the automaton has {states} states)"
            ))
        };
        if start >= states {
            return Err(out_of_range("start", start));
        }
        if states >= NONE as usize {
            return Err(invalid(format!("{states} states are too many")));
        }
        let mut is_accepting = vec![false; states];
        for &state in accepting {
            *is_accepting
                .get_mut(state)
                .ok_or_else(|| out_of_range("accepting", state))? = true;
        }
        let mut alphabet: Vec<i32> = transitions.iter().map(|&(_, v, _)| v).collect();
        alphabet.sort_unstable();
        alphabet.dedup();
        let mut next = vec![NONE; states * alphabet.len()];
        for &(from, value, to) in transitions {
            if from >= states {
                return Err(out_of_range("transition's source", from));
            }
            if to >= states {
                return Err(out_of_range("transition's target", to));
            }
            let symbol = alphabet
                .binary_search(&value)
                .expect("every value is in the alphabet");
            let slot = &mut next[from * alphabet.len() + symbol];
            if *slot != NONE && *slot != to as u32 {
                return Err(invalid(format!(
                    "state {from} has two transitions on value {value} (to {} and {to}): the \
                     automaton must be deterministic",
                    *slot
                )));
            }
            *slot = to as u32;
        }
        Ok(Dfa {
            states,
            start,
            accepting: is_accepting,
            alphabet,
            next,
        })
    }

    /// The automaton of a Nonogram clue over cells 0 (empty) and 1 (filled): blocks of filled
    /// cells of the given lengths, in order, separated by at least one empty cell, with any
    /// number of empty cells before and after. Zero lengths are ignored; no blocks at all
    /// accepts only empty rows.
    pub fn blocks(lengths: &[usize]) -> Dfa {
        let lengths: Vec<usize> = lengths.iter().copied().filter(|&b| b > 0).collect();
        let mut transitions = vec![(0, 0, 0)]; // empty cells before the first block
        let mut state = 0;
        for (i, &length) in lengths.iter().enumerate() {
            for _ in 0..length {
                transitions.push((state, 1, state + 1));
                state += 1;
            }
            if i + 1 < lengths.len() {
                // One empty cell at least, then as many as wanted.
                transitions.push((state, 0, state + 1));
                state += 1;
                transitions.push((state, 0, state));
            } else {
                transitions.push((state, 0, state)); // empty cells after the last block
            }
        }
        Dfa::new(state + 1, 0, &[state], &transitions).expect("a well-formed automaton")
    }

    /// The number of states.
    pub fn states(&self) -> usize {
        self.states
    }

    /// The state reached from `state` on `value`, if there is a transition.
    pub fn step(&self, state: usize, value: i32) -> Option<usize> {
        let symbol = self.alphabet.binary_search(&value).ok()?;
        self.step_symbol(state, symbol)
    }

    fn step_symbol(&self, state: usize, symbol: usize) -> Option<usize> {
        let to = self.next[state * self.alphabet.len() + symbol];
        (to != NONE).then_some(to as usize)
    }

    /// Whether the automaton accepts the word `values`.
    pub fn accepts(&self, values: &[i32]) -> bool {
        values
            .iter()
            .try_fold(self.start, |state, &v| self.step(state, v))
            .is_some_and(|state| self.accepting[state])
    }
}

/// `vars`, read in order, is a word the automaton accepts: the rows and columns of a Nonogram
/// ([`Dfa::blocks`]), shift rules ("no more than two night shifts in a row"), patterns of any
/// kind that a finite automaton can recognise; MiniZinc's `regular`.
///
/// Propagation, by [`PropagationLevel`]:
///
/// - `None`: fails when the whole scope is fixed to a word the automaton rejects.
/// - `Forward` and `Full`: domain consistency (Pesant, "A regular language membership
///   constraint for finite sequences of variables", CP 2004): the states reachable from the
///   start layer by layer, then those from which an accepting state can still be reached; a
///   value stays when it labels a transition between two such states. O(n · states ·
///   |alphabet|) per call.
///
/// # Examples
///
/// ```
/// use cspkit::{Dfa, Model, Regular};
///
/// // A row of five cells with the clue "3": three filled cells in a row, in three places.
/// let mut model = Model::new();
/// let row = model.new_vars(5, 0..=1)?;
/// model.post(Regular::new(&row, Dfa::blocks(&[3])))?;
/// assert_eq!(model.solver().count().solutions, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Regular {
    scope: Vec<VarId>,
    dfa: Dfa,
}

impl Regular {
    /// `vars` is a word accepted by `dfa`.
    pub fn new(vars: &[VarId], dfa: Dfa) -> Regular {
        Regular {
            scope: vars.to_vec(),
            dfa,
        }
    }

    /// The automaton.
    pub fn dfa(&self) -> &Dfa {
        &self.dfa
    }
}

impl Constraint for Regular {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// The scope's domains cut down by the constraint's own propagation
    /// ([`minimized_reason`](crate::kernel::minimized_reason)).
    fn explain(
        &self,
        inference: crate::kernel::Inference,
        ctx: &crate::kernel::ExplainContext<'_>,
    ) -> Option<Vec<crate::kernel::Literal>> {
        crate::kernel::minimized_reason(self, inference, ctx)
    }

    fn check(&self, values: &[i32]) -> bool {
        self.dfa.accepts(values)
    }

    fn propagate(&self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        let dfa = &self.dfa;
        if ctx.level() == PropagationLevel::None {
            return ctx.check_if_fixed(self);
        }
        let (n, q, sigma) = (self.scope.len(), dfa.states, dfa.alphabet.len());
        // The symbols each variable can take.
        let mut symbols: Vec<SmallVec<[usize; 16]>> = Vec::with_capacity(n);
        for &var in &self.scope {
            let domain = ctx.domain(var);
            symbols.push(
                (0..sigma)
                    .filter(|&s| domain.contains(dfa.alphabet[s]))
                    .collect(),
            );
        }
        // Forward: states reachable at each layer.
        let mut reach = vec![false; (n + 1) * q];
        reach[dfa.start] = true;
        for i in 0..n {
            for state in 0..q {
                if !reach[i * q + state] {
                    continue;
                }
                for &s in &symbols[i] {
                    if let Some(to) = dfa.step_symbol(state, s) {
                        reach[(i + 1) * q + to] = true;
                    }
                }
            }
        }
        // Backward: of those, the states that still lead to acceptance.
        let mut alive = vec![false; (n + 1) * q];
        for state in 0..q {
            alive[n * q + state] = reach[n * q + state] && dfa.accepting[state];
        }
        let mut supported: Vec<SmallVec<[i32; 16]>> = vec![SmallVec::new(); n];
        for i in (0..n).rev() {
            let mut used = vec![false; sigma];
            for state in 0..q {
                if !reach[i * q + state] {
                    continue;
                }
                for &s in &symbols[i] {
                    if dfa
                        .step_symbol(state, s)
                        .is_some_and(|to| alive[(i + 1) * q + to])
                    {
                        alive[i * q + state] = true;
                        used[s] = true;
                    }
                }
            }
            supported[i] = (0..sigma)
                .filter(|&s| used[s])
                .map(|s| dfa.alphabet[s])
                .collect();
        }
        if !alive[dfa.start] {
            return Err(Conflict);
        }
        for (&var, values) in self.scope.iter().zip(&supported) {
            ctx.retain_sorted(var, values)?;
        }
        Ok(())
    }

    fn wake_on(&self, level: PropagationLevel) -> WakeOn {
        check_then_any_change(level)
    }

    fn is_idempotent(&self, level: PropagationLevel) -> bool {
        level != PropagationLevel::None
    }
}
