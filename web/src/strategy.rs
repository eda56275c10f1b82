//! The strategy names the CLI's options accept (`--var-order`, `--value-order`,
//! `--branching`, `--count-as`, `--propagation`), and the orders they stand for.
//!
//! The names are the CLI's, so a spec reads like a command line and the page's menus list
//! what `cspkit help queens` lists.

use cspkit::flatzinc::{AnnotatedOrder, AnnotatedValues};
use cspkit::{
    Ascending, Branching, ConstraintId, Counting, Descending, DomWdeg, DomainOverDegree,
    InputOrder, LeastConstraining, MiddleOut, Propagation, RandomValue, SearchView, SmallestDomain,
    SmallestDomainRandomTies, ValueOrder, VarId, VariableOrder,
};

/// The variable orders by their CLI names.
pub const VARIABLE_ORDERS: [&str; 5] = ["input", "mrv", "mrv-random", "dom-deg", "dom-wdeg"];

/// The value orders by their CLI names.
pub const VALUE_ORDERS: [&str; 5] = ["asc", "desc", "middle", "random", "lcv"];

/// The branchings by their CLI names.
pub const BRANCHINGS: [&str; 3] = ["assign", "split", "dway"];

/// The seed of the random orders: the CLI's default (`--seed` is not part of a spec).
const SEED: u64 = 0;

/// A variable order chosen by name (or a FlatZinc model's annotations).
#[derive(Debug, Clone)]
pub enum ChosenVariableOrder {
    /// `input`.
    Input(InputOrder),
    /// `mrv`.
    Mrv(SmallestDomain),
    /// `mrv-random`.
    MrvRandom(SmallestDomainRandomTies),
    /// `dom-deg`.
    DomDeg(DomainOverDegree),
    /// `dom-wdeg`.
    DomWdeg(DomWdeg),
    /// A FlatZinc model's search annotations.
    Annotations(AnnotatedOrder),
}

impl ChosenVariableOrder {
    /// The order named `name`, if it is one.
    pub fn by_name(name: &str) -> Option<ChosenVariableOrder> {
        Some(match name {
            "input" => ChosenVariableOrder::Input(InputOrder),
            "mrv" => ChosenVariableOrder::Mrv(SmallestDomain),
            "mrv-random" => ChosenVariableOrder::MrvRandom(SmallestDomainRandomTies::new(SEED)),
            "dom-deg" => ChosenVariableOrder::DomDeg(DomainOverDegree),
            "dom-wdeg" => ChosenVariableOrder::DomWdeg(DomWdeg::new()),
            _ => return None,
        })
    }
}

impl VariableOrder for ChosenVariableOrder {
    fn select_variable(&mut self, view: &SearchView<'_>) -> Option<VarId> {
        match self {
            ChosenVariableOrder::Input(order) => order.select_variable(view),
            ChosenVariableOrder::Mrv(order) => order.select_variable(view),
            ChosenVariableOrder::MrvRandom(order) => order.select_variable(view),
            ChosenVariableOrder::DomDeg(order) => order.select_variable(view),
            ChosenVariableOrder::DomWdeg(order) => order.select_variable(view),
            ChosenVariableOrder::Annotations(order) => order.select_variable(view),
        }
    }

    fn start_run(&mut self, run: u32) {
        match self {
            ChosenVariableOrder::MrvRandom(order) => order.start_run(run),
            ChosenVariableOrder::Annotations(order) => order.start_run(run),
            _ => {}
        }
    }

    fn failure(&mut self, constraint: Option<ConstraintId>) {
        match self {
            ChosenVariableOrder::DomWdeg(order) => order.failure(constraint),
            ChosenVariableOrder::Annotations(order) => order.failure(constraint),
            _ => {}
        }
    }
}

/// A value order chosen by name (or a FlatZinc model's annotations).
#[derive(Debug, Clone)]
pub enum ChosenValueOrder {
    /// `asc`.
    Asc(Ascending),
    /// `desc`.
    Desc(Descending),
    /// `middle`.
    Middle(MiddleOut),
    /// `random`.
    Random(RandomValue),
    /// `lcv`.
    Lcv(LeastConstraining),
    /// A FlatZinc model's search annotations.
    Annotations(AnnotatedValues),
}

impl ChosenValueOrder {
    /// The order named `name`, if it is one.
    pub fn by_name(name: &str) -> Option<ChosenValueOrder> {
        Some(match name {
            "asc" => ChosenValueOrder::Asc(Ascending),
            "desc" => ChosenValueOrder::Desc(Descending),
            "middle" => ChosenValueOrder::Middle(MiddleOut),
            "random" => ChosenValueOrder::Random(RandomValue::new(SEED)),
            "lcv" => ChosenValueOrder::Lcv(LeastConstraining::new()),
            _ => return None,
        })
    }
}

impl ValueOrder for ChosenValueOrder {
    fn select_value(&mut self, var: VarId, view: &SearchView<'_>) -> i32 {
        match self {
            ChosenValueOrder::Asc(order) => order.select_value(var, view),
            ChosenValueOrder::Desc(order) => order.select_value(var, view),
            ChosenValueOrder::Middle(order) => order.select_value(var, view),
            ChosenValueOrder::Random(order) => order.select_value(var, view),
            ChosenValueOrder::Lcv(order) => order.select_value(var, view),
            ChosenValueOrder::Annotations(order) => order.select_value(var, view),
        }
    }

    fn start_run(&mut self, run: u32) {
        if let ChosenValueOrder::Random(order) = self {
            order.start_run(run);
        }
    }
}

/// The branching named `name`, if it is one.
pub fn branching_by_name(name: &str) -> Option<Branching> {
    Some(match name {
        "assign" => Branching::Assign,
        "split" => Branching::Split,
        "dway" => Branching::DWay,
        _ => return None,
    })
}

/// The propagation names `--propagation` accepts (`mac` is `full`).
pub fn propagation_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = Propagation::ALL.iter().map(|p| p.name()).collect();
    names.push("mac");
    names
}

/// The counting conventions by their names.
pub fn counting_names() -> Vec<&'static str> {
    Counting::ALL.iter().map(|c| c.name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_builds_its_order() {
        for name in VARIABLE_ORDERS {
            assert!(ChosenVariableOrder::by_name(name).is_some(), "{name}");
        }
        for name in VALUE_ORDERS {
            assert!(ChosenValueOrder::by_name(name).is_some(), "{name}");
        }
        for name in BRANCHINGS {
            assert!(branching_by_name(name).is_some(), "{name}");
        }
        for name in propagation_names() {
            assert!(name.parse::<Propagation>().is_ok(), "{name}");
        }
        assert!(ChosenVariableOrder::by_name("smallest").is_none());
    }
}
