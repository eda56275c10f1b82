//! The crate's one pseudo-random generator: SplitMix64 (Steele, Lea and Flood, "Fast
//! splittable pseudorandom number generators", OOPSLA 2014), in two forms.
//!
//! - As a stream, [`SplitMix64`]: each call advances a state. The conformance kit draws its
//!   cases with it, min-conflicts its choices, the FlatZinc runner its random values.
//! - In counter mode, [`nth`]: the `i`-th output of SplitMix64 seeded with `s` is a bijective
//!   mixing function applied to `s + (i + 1)·γ`, so any output can be computed directly from the
//!   seed and its index. That is what makes the randomised orders functions of their seed, their
//!   run and the domains, rather than of a generator's state that the history of the search
//!   would have advanced.
//!
//! Both give the same numbers: the `i`-th call of `next_u64` on `SplitMix64::new(s)` returns
//! `nth(s, i)`.

use std::ops::RangeInclusive;

/// The increment of SplitMix64: the odd integer closest to 2⁶⁴ divided by the golden ratio.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The output function of SplitMix64 (a variant of MurmurHash3's finaliser): a bijection of
/// `u64` in which every input bit affects every output bit.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The output number `index` (from 0) of SplitMix64 seeded with `seed`. Distinct indices give
/// distinct outputs for one seed.
#[inline]
pub(crate) fn nth(seed: u64, index: u64) -> u64 {
    mix(seed.wrapping_add(index.wrapping_add(1).wrapping_mul(GAMMA)))
}

/// The key of run `run` of a randomised order seeded with `seed`: the seed of the numbers it
/// draws during that run. Keys of different runs are unrelated outputs of the generator.
#[inline]
pub(crate) fn run_key(seed: u64, run: u32) -> u64 {
    nth(seed, u64::from(run))
}

/// A small, fast, seedable pseudo-random generator (SplitMix64, by Guy L. Steele, Doug Lea
/// and Christine H. Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
///
/// Not for cryptography: it draws test cases. The same seed gives the same sequence on every
/// platform.
///
/// # Examples
///
/// ```
/// use cspkit::conformance::SplitMix64;
///
/// let mut random = SplitMix64::new(42);
/// let die = random.value_in(1..=6);
/// assert!((1..=6).contains(&die));
/// assert_eq!(SplitMix64::new(42).value_in(1..=6), die);
/// ```
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// A number in `0..bound` (0 when `bound` is 0), by multiply-and-shift: the bias is below
    /// `bound / 2^64`, negligible for test cases.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// A value in `range` (its start when the range is empty).
    pub fn value_in(&mut self, range: RangeInclusive<i32>) -> i32 {
        let (low, high) = (*range.start(), *range.end());
        if low >= high {
            return low;
        }
        let width = (i64::from(high) - i64::from(low) + 1) as u64;
        (i64::from(low) + self.below(width) as i64) as i32
    }

    /// True with probability `numerator / denominator` (false when the denominator is 0).
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.below(denominator) < numerator
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outputs_are_those_of_splitmix64() {
        // The first outputs of the reference implementation seeded with 1234567.
        let expected: [u64; 3] = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
        ];
        for (index, &value) in expected.iter().enumerate() {
            assert_eq!(nth(1_234_567, index as u64), value);
        }
    }

    #[test]
    fn runs_have_unrelated_keys() {
        let keys: Vec<u64> = (0..100).map(|run| run_key(7, run)).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), keys.len());
        // Consecutive runs do not draw shifted copies of one sequence.
        assert_ne!(nth(keys[1], 0), nth(keys[0], 1));
    }

    #[test]
    fn the_stream_draws_the_outputs_in_order() {
        let mut random = SplitMix64::new(1_234_567);
        assert_eq!(random.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(random.next_u64(), 3_203_168_211_198_807_973);
        for seed in [0, 7, u64::MAX] {
            let mut random = SplitMix64::new(seed);
            for index in 0..20 {
                assert_eq!(random.next_u64(), nth(seed, index));
            }
        }
    }
}
