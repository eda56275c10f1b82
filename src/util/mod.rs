//! Small building blocks shared by several layers, below all of them: the pseudo-random
//! generator, an iterator over the set bits of a word, a sparse set of positions, the clock.
//!
//! Nothing here knows about variables, domains or constraints.

pub(crate) mod bits;
pub(crate) mod clock;
pub(crate) mod random;
pub(crate) mod sparse_set;
