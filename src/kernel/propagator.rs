//! [`Propagator`]: the per-search, stateful side of a constraint, with its reversible state and
//! the changes it is told of. The rules are in the [`kernel`](crate::kernel) module.

use std::fmt;
use std::marker::PhantomData;

use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::trail::Trail;
use crate::kernel::{Conflict, PropagationContext, PropagationLevel};

/// The stateful, per-search enforcement of a constraint, created by
/// [`Constraint::propagator`](crate::Constraint::propagator).
///
/// The contract is that of [`Constraint::propagate`](crate::Constraint::propagate) (sound,
/// complete on fixed scopes, local; need not reach a fixpoint), plus two rules about state:
///
/// 1. Everything that describes the current node is kept in [`Reversible`] values, so that the
///    engine restores it on backtracking; plain fields hold only caches that are checked against
///    the domains wherever they are used.
/// 2. When [`changes`](crate::PropagationContext::changes) is `None` (the first run, at the root
///    of a search), the propagator rebuilds its state from the domains of its whole scope; when
///    it is `Some`, every variable of the scope that changed since the last run is in the list.
///
/// It is run at the [`PropagationLevel`] it was created for, and with the constraint's
/// [`wake_on`](crate::Constraint::wake_on) and
/// [`is_idempotent`](crate::Constraint::is_idempotent) at that level.
pub trait Propagator: fmt::Debug + Send {
    /// Prunes the domains of the scope, or reports that the constraint cannot be satisfied.
    ///
    /// # Errors
    ///
    /// [`Conflict`] when no assignment of the current domains satisfies the constraint; at
    /// least when the whole scope is fixed and violates it.
    fn propagate(&mut self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict>;

    /// Whether the propagator reads [`changes`](crate::PropagationContext::changes). The engine
    /// records them only for propagators that do, as it costs a little on every domain change;
    /// for the others `changes` is always `None`. The default is `true`.
    fn reads_changes(&self) -> bool {
        true
    }
}

impl<P: Propagator + ?Sized> Propagator for Box<P> {
    fn propagate(&mut self, ctx: &mut PropagationContext<'_>) -> Result<(), Conflict> {
        (**self).propagate(ctx)
    }
    fn reads_changes(&self) -> bool {
        (**self).reads_changes()
    }
}

/// What a [`Constraint`](crate::Constraint) gets when it creates its propagator for a search:
/// the level, the domains at the start of the search, and the reversible values.
#[derive(Debug)]
pub struct PropagatorSetup<'a> {
    domains: &'a [Domain],
    trail: &'a mut Trail,
    level: PropagationLevel,
}

impl<'a> PropagatorSetup<'a> {
    pub(crate) fn new(
        domains: &'a [Domain],
        trail: &'a mut Trail,
        level: PropagationLevel,
    ) -> Self {
        PropagatorSetup {
            domains,
            trail,
            level,
        }
    }

    /// The propagation level the propagator will run at.
    pub fn level(&self) -> PropagationLevel {
        self.level
    }

    /// The domain of `var` in the model (before the root propagation). Domains only shrink,
    /// so what is derived from them stays valid for the whole search.
    ///
    /// # Panics
    ///
    /// If `var` is not a variable of the model being solved.
    pub fn domain(&self, var: VarId) -> &Domain {
        &self.domains[var.index()]
    }

    /// A new reversible value, `initial` until the propagator changes it. The engine restores it
    /// on backtracking; a restarted search starts it from `initial` again.
    pub fn reversible<T: ReversibleValue>(&mut self, initial: T) -> Reversible<T> {
        Reversible {
            index: self.trail.new_word(initial.to_word()),
            value: PhantomData,
        }
    }
}

/// A handle to a value that the engine restores on backtracking, created by
/// [`PropagatorSetup::reversible`]; read and write it through the
/// [`PropagationContext`] with `get` and `set`.
///
/// It is a `u32` index: `Copy`, and as cheap to keep in a propagator as an integer.
pub struct Reversible<T> {
    index: u32,
    value: PhantomData<fn() -> T>,
}

impl<T> Reversible<T> {
    pub(crate) fn index(self) -> u32 {
        self.index
    }
}

impl<T> Clone for Reversible<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Reversible<T> {}

impl<T> fmt::Debug for Reversible<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Reversible({})", self.index)
    }
}

/// A type a [`Reversible`] can hold: anything that fits one 64-bit word.
pub trait ReversibleValue: Copy {
    /// The value as a word.
    fn to_word(self) -> u64;
    /// The value back from its word.
    fn from_word(word: u64) -> Self;
}

macro_rules! reversible_integer {
    ($($t:ty),*) => {$(
        impl ReversibleValue for $t {
            #[inline]
            fn to_word(self) -> u64 {
                self as u64
            }
            #[inline]
            fn from_word(word: u64) -> Self {
                word as $t
            }
        }
    )*};
}

reversible_integer!(u64, i64, u32, i32, usize);

impl ReversibleValue for bool {
    #[inline]
    fn to_word(self) -> u64 {
        u64::from(self)
    }
    #[inline]
    fn from_word(word: u64) -> Self {
        word != 0
    }
}

/// How a domain changed, from the weakest to the strongest: each event implies those before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum DomainEvent {
    /// Values were removed, the smallest and the largest kept.
    Removed,
    /// The smallest or the largest value was removed (more than one value is left).
    Bounds,
    /// One value is left.
    Fixed,
}

impl DomainEvent {
    pub(crate) const ALL: [DomainEvent; 3] = [
        DomainEvent::Removed,
        DomainEvent::Bounds,
        DomainEvent::Fixed,
    ];

    #[inline]
    pub(crate) fn code(self) -> u8 {
        self as u8 + 1
    }

    #[inline]
    pub(crate) fn from_code(code: u8) -> DomainEvent {
        DomainEvent::ALL[usize::from(code - 1)]
    }
}

/// One variable of a propagator's scope that changed since the propagator last ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Change {
    /// The position of the variable in the scope.
    pub position: usize,
    /// The strongest event the variable saw since then.
    pub event: DomainEvent,
}
