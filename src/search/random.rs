//! The pseudo-random numbers of the randomised orders: SplitMix64 (Steele, Lea and Flood,
//! "Fast splittable pseudorandom number generators", OOPSLA 2014), used in counter mode.
//!
//! The `i`-th output of SplitMix64 seeded with `s` is a bijective mixing function applied to
//! `s + (i + 1)·γ`, so any output can be computed directly from the seed and its index. That is
//! what makes the randomised orders functions of their seed, their run and the domains, rather
//! than of a generator's state that the history of the search would have advanced.

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
}
