//! The zebra puzzle (Life International, 1962): five houses in a row, and fifteen clues. Who
//! drinks water? Who owns the zebra? Each variable is the house (1 to 5, left to right) where
//! a colour, nationality, drink, smoke or pet is found.
//!
//! Run with `cargo run --release --example zebra`.

use cspkit::{AllDifferent, Comparison, Distance, Model, ModelError, Relation, VarId};

/// The five groups of five attributes, in the order the variables are declared.
#[rustfmt::skip]
pub const GROUPS: [[&str; 5]; 5] = [
    ["red", "green", "ivory", "yellow", "blue"],
    ["Englishman", "Spaniard", "Ukrainian", "Norwegian", "Japanese"],
    ["coffee", "tea", "milk", "orange juice", "water"],
    ["Old Gold", "Kools", "Chesterfield", "Lucky Strike", "Parliament"],
    ["dog", "snails", "fox", "horse", "zebra"],
];

/// Declares five attributes of one kind, each in a different house.
fn group(model: &mut Model, names: [&str; 5]) -> Result<[VarId; 5], ModelError> {
    let [a, b, c, d, e] = names.map(|name| model.new_named_var(name, 1..=5));
    let vars = [a?, b?, c?, d?, e?];
    model.post(AllDifferent::new(&vars))?;
    Ok(vars)
}

/// The puzzle's model: one variable per attribute (named after it), holding its house.
pub fn model() -> Result<Model, ModelError> {
    let mut model = Model::new();
    let [red, green, ivory, yellow, blue] = group(&mut model, GROUPS[0])?;
    let [english, spaniard, ukrainian, norwegian, japanese] = group(&mut model, GROUPS[1])?;
    let [coffee, tea, milk, orange_juice, _water] = group(&mut model, GROUPS[2])?;
    let [old_gold, kools, chesterfield, lucky_strike, parliament] = group(&mut model, GROUPS[3])?;
    let [dog, snails, fox, horse, _zebra] = group(&mut model, GROUPS[4])?;
    let same = |a, b| Relation::new(a, Comparison::Eq, b);
    let next_to = |a, b| Distance::new(a, b, Comparison::Eq, 1);

    // 1. There are five houses (the domains).
    model.post(same(english, red))?; // 2. The Englishman lives in the red house.
    model.post(same(spaniard, dog))?; // 3. The Spaniard owns the dog.
    model.post(same(coffee, green))?; // 4. Coffee is drunk in the green house.
    model.post(same(ukrainian, tea))?; // 5. The Ukrainian drinks tea.
    model.post((green - ivory).eq(1))?; // 6. Green is just right of ivory.
    model.post(same(old_gold, snails))?; // 7. The Old Gold smoker owns snails.
    model.post(same(kools, yellow))?; // 8. Kools are smoked in the yellow house.
    model.fix(milk, 3)?; // 9. Milk is drunk in the middle house.
    model.fix(norwegian, 1)?; // 10. The Norwegian lives in the first house.
    model.post(next_to(chesterfield, fox))?; // 11. Chesterfields next to the fox.
    model.post(next_to(kools, horse))?; // 12. Kools next to the horse.
    model.post(same(lucky_strike, orange_juice))?; // 13. Lucky Strike with orange juice.
    model.post(same(japanese, parliament))?; // 14. The Japanese smokes Parliaments.
    model.post(next_to(norwegian, blue))?; // 15. The Norwegian next to the blue house.
    Ok(model)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let model = model()?;
    let mut solver = model.solver();
    let solution = solver.next_solution().solution().ok_or("no solution")?;
    let house = |name: &str| model.var_by_name(name).map(|var| solution[var]);
    let owner = |thing: &str| GROUPS[1].into_iter().find(|&n| house(n) == house(thing));
    println!("The {} drinks water.", owner("water").unwrap_or("nobody"));
    println!("The {} owns the zebra.", owner("zebra").unwrap_or("nobody"));
    for h in 1..=5 {
        let row: Vec<&str> = GROUPS
            .iter()
            .flatten()
            .copied()
            .filter(|&n| house(n) == Some(h))
            .collect();
        println!("house {h}: {}", row.join(", "));
    }
    let stats = solver.stats();
    println!("{} decisions, {:?}", stats.decisions, stats.elapsed);
    Ok(())
}
