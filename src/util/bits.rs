//! The set bits of a 64-bit word, as an iterator.

/// The set bits of a word, lowest first: each step is one `trailing_zeros` and clears the
/// lowest set bit, so a word with `k` bits set costs `k` steps whatever their positions.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ones(pub(crate) u64);

impl Iterator for Ones {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        (self.0 != 0).then(|| {
            let bit = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            bit
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_set_bits_come_lowest_first() {
        assert_eq!(Ones(0).count(), 0);
        assert_eq!(Ones(0b1011_0000).collect::<Vec<_>>(), [4, 5, 7]);
        assert_eq!(Ones(1 << 63 | 1).collect::<Vec<_>>(), [0, 63]);
        assert_eq!(Ones(u64::MAX).count(), 64);
    }
}
