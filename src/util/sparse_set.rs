//! A sparse set of positions `0..n` whose size is kept by the caller.
//!
//! `members[..size]` are the positions in the set, in no particular order, and `places[p]` is
//! the index of position `p` in `members`, so membership is one comparison (`places[p] <
//! size`) and removal one swap, both O(1). Removing never forgets a position: it is swapped
//! just past the end. So when the size lives elsewhere, in a reversible word that backtracking
//! restores, the set is restored with it: after a backtrack `members[..size]` holds the same
//! positions again, in another order (Briggs and Torczon, "An efficient representation for
//! sparse sets", 1993; the reversible form is the one of Gecode's and Pumpkin's propagators).
//!
//! Cost: two vectors of `n` `u32`s, allocated once.

/// A sparse set of positions `0..n` whose size the caller keeps (see the module's docs).
#[derive(Debug, Clone)]
pub(crate) struct SparseSet {
    members: Vec<u32>,
    places: Vec<u32>,
}

impl SparseSet {
    /// The positions `0..n`, each at its own index.
    pub(crate) fn full(n: usize) -> Self {
        SparseSet {
            members: (0..n as u32).collect(),
            places: (0..n as u32).collect(),
        }
    }

    /// Puts every position back at its own index, as [`full`](Self::full) made them.
    pub(crate) fn reset(&mut self) {
        for (position, (member, place)) in self.members.iter_mut().zip(&mut self.places).enumerate()
        {
            *member = position as u32;
            *place = position as u32;
        }
    }

    /// Whether `position` is among the first `size` members.
    #[inline]
    pub(crate) fn contains(&self, position: usize, size: u32) -> bool {
        self.places[position] < size
    }

    /// The first `size` members, in no particular order.
    #[inline]
    pub(crate) fn members(&self, size: u32) -> &[u32] {
        &self.members[..size as usize]
    }

    /// Takes `position` out of the first `size` members (swapped to index `size - 1`, then
    /// `size` decreased); `false` if it was out already.
    #[inline]
    pub(crate) fn remove(&mut self, position: u32, size: &mut u32) -> bool {
        let place = self.places[position as usize];
        if place >= *size {
            return false;
        }
        *size -= 1;
        let last = self.members[*size as usize];
        self.members.swap(place as usize, *size as usize);
        self.places[last as usize] = place;
        self.places[position as usize] = *size;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removal_swaps_past_the_end_and_a_larger_size_restores_the_members() {
        let mut set = SparseSet::full(5);
        let mut size = 5;
        assert!(set.remove(1, &mut size));
        assert!(!set.remove(1, &mut size));
        assert!(set.remove(4, &mut size));
        assert_eq!(size, 3);
        let mut left = set.members(size).to_vec();
        left.sort_unstable();
        assert_eq!(left, [0, 2, 3]);
        assert!(!set.contains(1, size) && set.contains(2, size));
        // Backtracking restores the size alone: the removed positions are members again.
        let mut all = set.members(5).to_vec();
        all.sort_unstable();
        assert_eq!(all, [0, 1, 2, 3, 4]);
        assert!(set.contains(1, 5) && set.contains(4, 5));
        set.reset();
        assert_eq!(set.members(5), [0, 1, 2, 3, 4]);
    }
}
