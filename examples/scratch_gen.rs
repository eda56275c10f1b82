//! scratch
use cspkit::models::genre::Genre;
use cspkit::models::skyscrapers::Skyscrapers;
fn main() {
    let s = Skyscrapers::empty(4).unwrap();
    let gm = s.model().unwrap();
    let t = std::time::Instant::now();
    let p = gm.generator().with_seed(1).with_attempts(5).with_progress(|p| eprintln!("{p:?}")).generate();
    println!("{:?} {:?}", p.map(|p| p.clues.len()), t.elapsed());
}
