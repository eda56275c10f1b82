//! A differential fuzz of the FlatZinc front end: random models of the integer builtins over
//! edge values (the ends of the 32-bit range, empty intersections, indices out of range,
//! constants in any argument), every solution listed with `-a` and compared with a brute force
//! written here from the builtins' definitions. A model without solutions must be answered
//! `=====UNSATISFIABLE=====`, never refused as malformed.
//!
//! The Boolean builtins and globals get random models written as MiniZinc flattens them:
//! clauses, conjunctions and disjunctions, reified comparisons, `bool2int` of conjunctions in
//! linear sums, lex on booleans (the global, and MiniZinc's decomposition into clauses over
//! helper variables), with introduced variables that no constraint defines and that the output
//! does not show. The solutions listed must be those of the brute force projected on the output,
//! each once, whatever the search (annotations or free) and however many are asked for.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

use cspkit::flatzinc::{self, Options, Status};
use proptest::prelude::*;
use proptest::sample::Index;

use crate::common::output_within;

/// Values at the edges: the ends of `i32`, around zero, and a few in between.
const EDGES: [i64; 11] = [
    i32::MIN as i64,
    i32::MIN as i64 + 1,
    -65_536,
    -3,
    -1,
    0,
    1,
    2,
    3,
    65_536,
    i32::MAX as i64,
];

/// An argument: one of the model's variables (by index), or a constant.
#[derive(Debug, Clone)]
enum Arg {
    Var(usize),
    Const(i64),
}

/// A builtin's definition: whether it holds for these values of its arguments (false where
/// it is undefined, which no solution may use).
type Definition = fn(&[i64]) -> bool;

/// The builtins: name, number of integer arguments, and definition.
fn builtins() -> Vec<(&'static str, usize, Definition)> {
    vec![
        ("int_eq", 2, |v| v[0] == v[1]),
        ("int_ne", 2, |v| v[0] != v[1]),
        ("int_le", 2, |v| v[0] <= v[1]),
        ("int_lt", 2, |v| v[0] < v[1]),
        ("int_plus", 3, |v| v[0] + v[1] == v[2]),
        ("int_times", 3, |v| v[0] * v[1] == v[2]),
        // Truncating division and its remainder, undefined for a zero divisor.
        ("int_div", 3, |v| v[1] != 0 && v[0] / v[1] == v[2]),
        ("int_mod", 3, |v| v[1] != 0 && v[0] % v[1] == v[2]),
        ("int_abs", 2, |v| v[0].abs() == v[1]),
        ("int_min", 3, |v| v[0].min(v[1]) == v[2]),
        ("int_max", 3, |v| v[0].max(v[1]) == v[2]),
        ("int_pow", 3, |v| {
            u32::try_from(v[1])
                .ok()
                .and_then(|e| i128::from(v[0]).checked_pow(e))
                == Some(i128::from(v[2]))
        }),
    ]
}

/// A random model: up to three variables over small sets of edge values, and one or two
/// calls, plain or reified, among them a linear one, an element and a set membership; or a
/// Boolean model ([`random_boolean_model`]).
#[derive(Debug, Clone)]
struct RandomModel {
    domains: Vec<Vec<i64>>,
    text: String,
    /// The constraints, as a test of an assignment.
    calls: Vec<Checked>,
    /// The output shows the first `shown` variables; the others are helpers it does not show.
    shown: usize,
    /// The shown variables as one output array `m` over these index ranges, instead of one
    /// scalar each.
    output_array: Option<Vec<(i64, i64)>>,
}

#[derive(Debug, Clone)]
enum Checked {
    Builtin {
        definition: Definition,
        args: Vec<Arg>,
        /// `b ⇔ call`, with `b` the variable of this index (0/1).
        reified: Option<usize>,
    },
    /// `int_lin_eq`, or `int_lin_le` when `at_most`.
    Linear {
        coefficients: Vec<i64>,
        args: Vec<Arg>,
        rhs: i64,
        at_most: bool,
    },
    Element {
        index: Arg,
        array: Vec<i64>,
        value: Arg,
    },
    SetIn {
        x: Arg,
        set: Vec<i64>,
    },
    /// `bool_clause(positive, negative)`: one of `positive` true or one of `negative` false.
    Clause {
        positive: Vec<Arg>,
        negative: Vec<Arg>,
    },
    /// `array_bool_and` (`all`) or `array_bool_or`: `result ⇔ ∧ inputs` or `∨ inputs`.
    Array {
        all: bool,
        inputs: Vec<Arg>,
        result: Arg,
    },
    /// `fzn_lex_lesseq_bool(x, y)`, or `fzn_lex_less_bool` when `strict`: `x` before `y`
    /// in lexicographic order (a proper prefix comes first).
    Lex {
        x: Vec<Arg>,
        y: Vec<Arg>,
        strict: bool,
    },
}

fn value_of(arg: &Arg, values: &[i64]) -> i64 {
    match arg {
        Arg::Var(i) => values[*i],
        Arg::Const(c) => *c,
    }
}

impl Checked {
    fn holds(&self, values: &[i64]) -> bool {
        match self {
            Checked::Builtin {
                definition,
                args,
                reified,
            } => {
                let v: Vec<i64> = args.iter().map(|a| value_of(a, values)).collect();
                let holds = definition(&v);
                match reified {
                    None => holds,
                    Some(b) => (values[*b] == 1) == holds,
                }
            }
            Checked::Linear {
                coefficients,
                args,
                rhs,
                at_most,
            } => {
                let sum: i128 = coefficients
                    .iter()
                    .zip(args)
                    .map(|(&a, x)| i128::from(a) * i128::from(value_of(x, values)))
                    .sum();
                if *at_most {
                    sum <= i128::from(*rhs)
                } else {
                    sum == i128::from(*rhs)
                }
            }
            Checked::Element {
                index,
                array,
                value,
            } => {
                let i = value_of(index, values);
                (1..=array.len() as i64).contains(&i)
                    && array[(i - 1) as usize] == value_of(value, values)
            }
            Checked::SetIn { x, set } => set.contains(&value_of(x, values)),
            Checked::Clause { positive, negative } => {
                positive.iter().any(|a| value_of(a, values) == 1)
                    || negative.iter().any(|a| value_of(a, values) == 0)
            }
            Checked::Array {
                all,
                inputs,
                result,
            } => {
                let mut inputs = inputs.iter().map(|a| value_of(a, values) == 1);
                let holds = if *all {
                    inputs.all(|b| b)
                } else {
                    inputs.any(|b| b)
                };
                holds == (value_of(result, values) == 1)
            }
            Checked::Lex { x, y, strict } => {
                let x: Vec<i64> = x.iter().map(|a| value_of(a, values)).collect();
                let y: Vec<i64> = y.iter().map(|a| value_of(a, values)).collect();
                // Slices compare lexicographically, a proper prefix first.
                if *strict { x < y } else { x <= y }
            }
        }
    }

    /// The variables the call reads.
    fn vars(&self) -> Vec<usize> {
        let args: Vec<&Arg> = match self {
            Checked::Builtin { args, reified, .. } => {
                return args
                    .iter()
                    .filter_map(|a| match a {
                        Arg::Var(i) => Some(*i),
                        Arg::Const(_) => None,
                    })
                    .chain(*reified)
                    .collect();
            }
            Checked::Linear { args, .. } => args.iter().collect(),
            Checked::Element { index, value, .. } => vec![index, value],
            Checked::SetIn { x, .. } => vec![x],
            Checked::Clause { positive, negative } => positive.iter().chain(negative).collect(),
            Checked::Array { inputs, result, .. } => inputs.iter().chain([result]).collect(),
            Checked::Lex { x, y, .. } => x.iter().chain(y).collect(),
        };
        args.into_iter()
            .filter_map(|a| match a {
                Arg::Var(i) => Some(*i),
                Arg::Const(_) => None,
            })
            .collect()
    }
}

fn text_of(arg: &Arg) -> String {
    match arg {
        Arg::Var(i) => format!("x{i}"),
        Arg::Const(c) => c.to_string(),
    }
}

fn edge_set(max: usize) -> impl Strategy<Value = Vec<i64>> {
    proptest::sample::subsequence(EDGES.to_vec(), 1..=max)
}

fn arg(vars: usize) -> impl Strategy<Value = Arg> {
    prop_oneof![
        3 => (0..vars).prop_map(Arg::Var),
        1 => proptest::sample::select(EDGES.to_vec()).prop_map(Arg::Const),
    ]
}

fn random_model() -> impl Strategy<Value = RandomModel> {
    let domains = proptest::collection::vec(edge_set(3), 1..=3);
    domains
        .prop_flat_map(|domains| {
            let vars = domains.len();
            let call = (
                0..builtins().len(),
                proptest::collection::vec(arg(vars), 3),
                any::<bool>(),
                proptest::collection::vec(-2i64..=2, 3),
                proptest::sample::select(EDGES.to_vec()),
                edge_set(3),
                0..4u8,
            );
            (Just(domains), proptest::collection::vec(call, 1..=2))
        })
        .prop_map(|(domains, calls)| {
            let mut text = String::new();
            for (i, domain) in domains.iter().enumerate() {
                let set: Vec<String> = domain.iter().map(ToString::to_string).collect();
                text.push_str(&format!(
                    "var {{{}}}: x{i} :: output_var;\n",
                    set.join(", ")
                ));
            }
            let mut domains = domains;
            let mut checked = Vec::new();
            for (k, (builtin, args, reify, coefficients, rhs, set, kind)) in
                calls.into_iter().enumerate()
            {
                let (name, arity, definition) = builtins()[builtin];
                match kind {
                    0 | 1 => {
                        let args: Vec<Arg> = args[..arity].to_vec();
                        let listed: Vec<String> = args.iter().map(text_of).collect();
                        // Only the comparisons have reified forms.
                        let reified = reify && arity == 2 && name != "int_abs";
                        if reified {
                            let b = domains.len();
                            domains.push(vec![0, 1]);
                            text.push_str(&format!("var bool: x{b} :: output_var;\n"));
                            text.push_str(&format!(
                                "constraint {name}_reif({}, x{b});\n",
                                listed.join(", ")
                            ));
                            checked.push(Checked::Builtin {
                                definition,
                                args,
                                reified: Some(b),
                            });
                        } else {
                            text.push_str(&format!("constraint {name}({});\n", listed.join(", ")));
                            checked.push(Checked::Builtin {
                                definition,
                                args,
                                reified: None,
                            });
                        }
                    }
                    2 => {
                        let listed: Vec<String> = args.iter().map(text_of).collect();
                        let coefficients: Vec<String> =
                            coefficients.iter().map(ToString::to_string).collect();
                        let rhs = if k == 0 { rhs } else { 0 };
                        text.push_str(&format!(
                            "constraint int_lin_eq([{}], [{}], {rhs});\n",
                            coefficients.join(", "),
                            listed.join(", ")
                        ));
                        checked.push(Checked::Linear {
                            coefficients: coefficients.iter().map(|c| c.parse().unwrap()).collect(),
                            args,
                            rhs,
                            at_most: false,
                        });
                    }
                    _ if reify => {
                        let array: Vec<i64> = set.clone();
                        let listed: Vec<String> = array.iter().map(ToString::to_string).collect();
                        text.push_str(&format!(
                            "constraint array_int_element({}, [{}], {});\n",
                            text_of(&args[0]),
                            listed.join(", "),
                            text_of(&args[1])
                        ));
                        checked.push(Checked::Element {
                            index: args[0].clone(),
                            array,
                            value: args[1].clone(),
                        });
                    }
                    _ => {
                        let listed: Vec<String> = set.iter().map(ToString::to_string).collect();
                        text.push_str(&format!(
                            "constraint set_in({}, {{{}}});\n",
                            text_of(&args[0]),
                            listed.join(", ")
                        ));
                        checked.push(Checked::SetIn {
                            x: args[0].clone(),
                            set,
                        });
                    }
                }
            }
            text.push_str("solve satisfy;\n");
            RandomModel {
                shown: domains.len(),
                domains,
                text,
                calls: checked,
                output_array: None,
            }
        })
}

/// Every solution by brute force, each written as `-a` prints it: every assignment of the
/// shown variables that some assignment of the helpers extends (each call checked as soon as
/// its last variable has a value).
fn expected(model: &RandomModel) -> BTreeSet<String> {
    let n = model.domains.len();
    // The calls by the last variable they read (those on constants alone with the first).
    let mut checked_at: Vec<Vec<&Checked>> = vec![Vec::new(); n];
    for call in &model.calls {
        let last = call.vars().into_iter().max().unwrap_or(0);
        checked_at[last].push(call);
    }
    // Whether `values[..i]` extends to a solution; every extension of the shown variables is
    // listed, the first of the helpers is enough.
    fn go(
        model: &RandomModel,
        checked_at: &[Vec<&Checked>],
        i: usize,
        values: &mut Vec<i64>,
        found: &mut BTreeSet<String>,
    ) -> bool {
        if i == model.domains.len() {
            found.insert(show(model, values));
            return true;
        }
        let mut any = false;
        for &v in &model.domains[i] {
            values[i] = v;
            if checked_at[i].iter().all(|c| c.holds(values))
                && go(model, checked_at, i + 1, values, found)
            {
                any = true;
                if i >= model.shown {
                    break;
                }
            }
        }
        any
    }
    let mut found = BTreeSet::new();
    let mut values = vec![0i64; n];
    go(model, &checked_at, 0, &mut values, &mut found);
    found
}

fn show(model: &RandomModel, values: &[i64]) -> String {
    let is_bool = |i: usize| {
        model.text.contains(&format!("var bool: x{i} "))
            || model.text.contains(&format!("var bool: x{i};"))
    };
    let text = |i: usize| {
        // The booleans are printed as booleans.
        if is_bool(i) {
            (values[i] == 1).to_string()
        } else {
            values[i].to_string()
        }
    };
    if let Some(ranges) = &model.output_array {
        let ranges: Vec<String> = ranges.iter().map(|(l, h)| format!("{l}..{h}")).collect();
        let values: Vec<String> = (0..model.shown).map(text).collect();
        return format!(
            "m = array{}d({}, [{}]);\n",
            ranges.len(),
            ranges.join(", "),
            values.join(", ")
        );
    }
    (0..model.shown)
        .map(|i| format!("x{i} = {};\n", text(i)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn every_builtin_over_edge_values_answers_as_brute_force(model in random_model()) {
        let items = flatzinc::parse(&model.text).expect("the generated model parses");
        let built = flatzinc::build(&items);
        prop_assert!(built.is_ok(), "{}\nrefused: {:?}", model.text, built.err());
        let built = built.unwrap();
        let mut out = Vec::new();
        let options = Options { all: true, ..Options::default() };
        let status = flatzinc::run(&built, &options, &mut out).expect("runs");
        let out = String::from_utf8(out).unwrap();
        let found = printed_solutions(&out);
        let distinct: BTreeSet<String> = found.iter().cloned().collect();
        prop_assert_eq!(distinct.len(), found.len(), "a solution printed twice:\n{}", model.text);
        let expected = expected(&model);
        prop_assert_eq!(&distinct, &expected, "{}", model.text);
        if expected.is_empty() {
            prop_assert_eq!(status, Status::Unsatisfiable, "{}", model.text);
            prop_assert_eq!(out.as_str(), "=====UNSATISFIABLE=====\n", "{}", model.text);
        } else {
            prop_assert_eq!(status, Status::Complete, "{}", model.text);
            prop_assert!(out.ends_with("==========\n"), "{}", model.text);
        }
    }
}

/// What one call of a random Boolean model needs, drawn before the model exists: its kind,
/// picks among the variables that exist when it is written (a constant instead, one time in
/// ten), flags, lengths and numbers.
#[derive(Debug, Clone)]
struct BoolCall {
    kind: u8,
    picks: Vec<Index>,
    constants: Vec<u8>,
    flags: Vec<bool>,
    lengths: (usize, usize),
    coefficients: Vec<i64>,
    rhs: i64,
}

fn bool_call() -> impl Strategy<Value = BoolCall> {
    (
        0u8..10,
        proptest::collection::vec(any::<Index>(), 8),
        proptest::collection::vec(0u8..10, 8),
        proptest::collection::vec(any::<bool>(), 6),
        (0usize..=3, 0usize..=3),
        proptest::collection::vec(-2i64..=2, 3),
        -1i64..=3,
    )
        .prop_map(
            |(kind, picks, constants, flags, lengths, coefficients, rhs)| BoolCall {
                kind,
                picks,
                constants,
                flags,
                lengths,
                coefficients,
                rhs,
            },
        )
}

/// A Boolean model being written as MiniZinc flattens one: the shown variables first, then
/// the helpers the calls introduce.
#[derive(Default)]
struct BoolModel {
    params: String,
    vars: String,
    constraints: String,
    domains: Vec<Vec<i64>>,
    calls: Vec<Checked>,
}

/// A Boolean argument as FlatZinc writes it.
fn bool_text(arg: &Arg) -> String {
    match arg {
        Arg::Var(i) => format!("x{i}"),
        Arg::Const(c) => (*c == 1).to_string(),
    }
}

fn bool_list(args: &[Arg]) -> String {
    let texts: Vec<String> = args.iter().map(bool_text).collect();
    format!("[{}]", texts.join(", "))
}

impl BoolModel {
    /// A new Boolean variable: shown (`output_var` unless an output array shows it), or an
    /// introduced helper, which a constraint defines or not.
    fn bool_var(&mut self, annotations: &str) -> usize {
        let i = self.domains.len();
        self.domains.push(vec![0, 1]);
        writeln!(self.vars, "var bool: x{i}{annotations};").unwrap();
        i
    }

    /// A helper no constraint defines.
    fn free_helper(&mut self) -> usize {
        self.bool_var(" :: var_is_introduced")
    }

    /// A helper a constraint defines.
    fn defined_helper(&mut self) -> usize {
        self.bool_var(" :: var_is_introduced :: is_defined_var")
    }

    /// `bool2int(b, i)`, with `i` a new integer helper, as MiniZinc writes it.
    fn bool2int(&mut self, b: Arg) -> Arg {
        let i = self.domains.len();
        self.domains.push(vec![0, 1]);
        writeln!(
            self.vars,
            "var 0..1: x{i} :: var_is_introduced :: is_defined_var;"
        )
        .unwrap();
        self.post(
            format!("bool2int({}, x{i}) :: defines_var(x{i})", bool_text(&b)),
            Checked::Builtin {
                definition: |v| v[0] == v[1],
                args: vec![b, Arg::Var(i)],
                reified: None,
            },
        );
        Arg::Var(i)
    }

    fn post(&mut self, call: String, checked: Checked) {
        writeln!(self.constraints, "constraint {call};").unwrap();
        self.calls.push(checked);
    }

    /// The `k`th pick: one of the variables so far, or a constant.
    fn pick(&self, call: &BoolCall, k: usize) -> Arg {
        if call.constants[k] == 0 {
            Arg::Const(call.picks[k].index(2) as i64)
        } else {
            Arg::Var(call.picks[k].index(self.domains.len()))
        }
    }

    fn picks(&self, call: &BoolCall, from: usize, count: usize) -> Vec<Arg> {
        (from..from + count).map(|k| self.pick(call, k)).collect()
    }

    /// A variable that holds a result: a new helper the call defines (then the annotation
    /// to write after the call), or one of the variables so far that is none of `args`
    /// (see `degenerate_boolean_calls_are_answered_not_refused` for the other case).
    fn result(&mut self, call: &BoolCall, new: bool, args: &[Arg]) -> (usize, String) {
        let others: Vec<usize> = (0..self.domains.len())
            .filter(|&i| !args.iter().any(|a| matches!(a, Arg::Var(j) if *j == i)))
            .collect();
        if new || others.is_empty() {
            let r = self.defined_helper();
            (r, format!(" :: defines_var(x{r})"))
        } else {
            (others[call.picks[7].index(others.len())], String::new())
        }
    }

    fn write(&mut self, call: &BoolCall) {
        let flags = &call.flags;
        match call.kind {
            // A clause, now and then over a new helper that nothing defines. (Never empty:
            // see `an_empty_clause_is_unsatisfiable_not_malformed`.)
            0 | 1 => {
                let (mut p, n) = call.lengths;
                if p + n == 0 {
                    p = 1;
                }
                let mut positive = self.picks(call, 0, p);
                let mut negative = self.picks(call, 4, n);
                if flags[1] {
                    let h = Arg::Var(self.free_helper());
                    if flags[2] {
                        positive.push(h);
                    } else {
                        negative.push(h);
                    }
                }
                self.post(
                    format!(
                        "bool_clause({}, {})",
                        bool_list(&positive),
                        bool_list(&negative)
                    ),
                    Checked::Clause { positive, negative },
                );
            }
            // A conjunction or disjunction, its result a new helper, a variable or a constant.
            2 => {
                let all = flags[0];
                let mut count = call.lengths.0;
                if count == 0 && !flags[3] {
                    count = 1;
                }
                let inputs = self.picks(call, 0, count);
                let (result, annotation) = if flags[2] && !flags[1] {
                    (self.pick(call, 7), String::new())
                } else {
                    let (r, annotation) = self.result(call, flags[1], &inputs);
                    (Arg::Var(r), annotation)
                };
                let name = if all {
                    "array_bool_and"
                } else {
                    "array_bool_or"
                };
                self.post(
                    format!(
                        "{name}({}, {}){annotation}",
                        bool_list(&inputs),
                        bool_text(&result)
                    ),
                    Checked::Array {
                        all,
                        inputs,
                        result,
                    },
                );
            }
            // A reified comparison.
            3 => {
                let builtins: [(&str, Definition); 4] = [
                    ("bool_lt_reif", |v| v[0] < v[1]),
                    ("bool_le_reif", |v| v[0] <= v[1]),
                    ("bool_eq_reif", |v| v[0] == v[1]),
                    ("bool_ne_reif", |v| v[0] != v[1]),
                ];
                let (name, definition) = builtins[call.picks[6].index(builtins.len())];
                let args = self.picks(call, 0, 2);
                let (r, annotation) = self.result(call, flags[1], &args);
                self.post(
                    format!(
                        "{name}({}, {}, x{r}){annotation}",
                        bool_text(&args[0]),
                        bool_text(&args[1])
                    ),
                    Checked::Builtin {
                        definition,
                        args,
                        reified: Some(r),
                    },
                );
            }
            // bool_xor with two or three arguments, bool_not.
            4 => {
                let args = self.picks(call, 0, 2);
                let (a, b) = (bool_text(&args[0]), bool_text(&args[1]));
                match call.lengths.0 % 3 {
                    0 => self.post(
                        format!("bool_xor({a}, {b})"),
                        Checked::Builtin {
                            definition: |v| v[0] != v[1],
                            args,
                            reified: None,
                        },
                    ),
                    1 => {
                        let (r, annotation) = self.result(call, flags[1], &args);
                        self.post(
                            format!("bool_xor({a}, {b}, x{r}){annotation}"),
                            Checked::Builtin {
                                definition: |v| v[0] != v[1],
                                args,
                                reified: Some(r),
                            },
                        );
                    }
                    _ => self.post(
                        format!("bool_not({a}, {b})"),
                        Checked::Builtin {
                            definition: |v| v[0] != v[1],
                            args,
                            reified: None,
                        },
                    ),
                }
            }
            // A linear sum of bool2int terms, some of them of a conjunction (array_bool_and
            // of two, its result a helper it defines), = or <= a constant.
            5 | 6 => {
                let terms = 1 + call.lengths.0 % 3;
                let mut args = Vec::new();
                for (k, &conjunction) in flags.iter().enumerate().take(terms) {
                    let b = if conjunction {
                        let inputs = vec![self.pick(call, 2 * k), self.pick(call, 2 * k + 1)];
                        let c = self.defined_helper();
                        self.post(
                            format!(
                                "array_bool_and({}, x{c}) :: defines_var(x{c})",
                                bool_list(&inputs)
                            ),
                            Checked::Array {
                                all: true,
                                inputs,
                                result: Arg::Var(c),
                            },
                        );
                        Arg::Var(c)
                    } else {
                        self.pick(call, 2 * k)
                    };
                    args.push(self.bool2int(b));
                }
                let coefficients = call.coefficients[..terms].to_vec();
                let listed: Vec<String> = coefficients.iter().map(ToString::to_string).collect();
                let listed = format!("[{}]", listed.join(", "));
                // The coefficients inline, or as a named array as MiniZinc writes them.
                let coefficients_text = if flags[4] {
                    let name = format!("c{}", self.calls.len());
                    writeln!(self.params, "array [1..{terms}] of int: {name} = {listed};").unwrap();
                    name
                } else {
                    listed
                };
                let at_most = flags[3];
                let name = if at_most { "int_lin_le" } else { "int_lin_eq" };
                let vars: Vec<String> = args.iter().map(text_of).collect();
                self.post(
                    format!(
                        "{name}({coefficients_text}, [{}], {})",
                        vars.join(", "),
                        call.rhs
                    ),
                    Checked::Linear {
                        coefficients,
                        args,
                        rhs: call.rhs,
                        at_most,
                    },
                );
            }
            // Lex on booleans: the global, or MiniZinc's decomposition.
            7 | 8 => {
                let lx = 1 + call.lengths.0 % 3;
                let ly = if flags[2] { 1 + call.lengths.1 % 3 } else { lx };
                let x = self.picks(call, 0, lx);
                let y = self.picks(call, 3, ly);
                let strict = flags[0];
                if flags[1] {
                    let name = if strict {
                        "fzn_lex_less_bool"
                    } else {
                        "fzn_lex_lesseq_bool"
                    };
                    self.post(
                        format!("{name}({}, {})", bool_list(&x), bool_list(&y)),
                        Checked::Lex { x, y, strict },
                    );
                } else {
                    self.lex_decomposition(&x, &y, strict);
                }
            }
            // A plain comparison.
            _ => {
                let builtins: [(&str, Definition); 4] = [
                    ("bool_lt", |v| v[0] < v[1]),
                    ("bool_le", |v| v[0] <= v[1]),
                    ("bool_eq", |v| v[0] == v[1]),
                    ("bool_ne", |v| v[0] != v[1]),
                ];
                let (name, definition) = builtins[call.picks[6].index(builtins.len())];
                let args = self.picks(call, 0, 2);
                self.post(
                    format!("{name}({}, {})", bool_text(&args[0]), bool_text(&args[1])),
                    Checked::Builtin {
                        definition,
                        args,
                        reified: None,
                    },
                );
            }
        }
    }

    /// `lex_lesseq(x, y)` (or `lex_less`) as MiniZinc's standard library decomposes it for a
    /// solver without the global (`fzn_lex_lesseq_bool.mzn`): helpers `b[0..=n]` (n the
    /// common length), `b[0]` true, `b[i] → x[i] ≤ y[i]` and `b[i] → (x[i] < y[i] ∨ b[i+1])`,
    /// and `b[n]` allowed only if the lengths allow `x` first. Nothing defines the helpers
    /// `b`: below a solution where `x[i] < y[i]`, each of `b[i+1..]` can take both values.
    fn lex_decomposition(&mut self, x: &[Arg], y: &[Arg], strict: bool) {
        let n = x.len().min(y.len());
        let last_allowed = if strict {
            x.len() < y.len()
        } else {
            x.len() <= y.len()
        };
        // b[0] is true and b[n] false if the lengths do not allow it: MiniZinc writes constants.
        let mut b = vec![Arg::Const(1)];
        for _ in 1..n {
            b.push(Arg::Var(self.free_helper()));
        }
        b.push(if last_allowed {
            Arg::Var(self.free_helper())
        } else {
            Arg::Const(0)
        });
        for i in 0..n {
            // b[i] → x[i] ≤ y[i].
            let (positive, mut negative) = (vec![y[i].clone()], vec![x[i].clone()]);
            if i > 0 {
                negative.push(b[i].clone());
            }
            self.post(
                format!(
                    "bool_clause({}, {})",
                    bool_list(&positive),
                    bool_list(&negative)
                ),
                Checked::Clause { positive, negative },
            );
            // b[i] → (x[i] < y[i] ∨ b[i+1]), with x[i] < y[i] a helper it defines.
            let lt = self.defined_helper();
            self.post(
                format!(
                    "bool_lt_reif({}, {}, x{lt}) :: defines_var(x{lt})",
                    bool_text(&x[i]),
                    bool_text(&y[i])
                ),
                Checked::Builtin {
                    definition: |v| v[0] < v[1],
                    args: vec![x[i].clone(), y[i].clone()],
                    reified: Some(lt),
                },
            );
            let positive = vec![b[i + 1].clone(), Arg::Var(lt)];
            if i == 0 {
                self.post(
                    format!("array_bool_or({}, true)", bool_list(&positive)),
                    Checked::Array {
                        all: false,
                        inputs: positive,
                        result: Arg::Const(1),
                    },
                );
            } else {
                let negative = vec![b[i].clone()];
                self.post(
                    format!(
                        "bool_clause({}, {})",
                        bool_list(&positive),
                        bool_list(&negative)
                    ),
                    Checked::Clause { positive, negative },
                );
            }
        }
    }
}

/// The search of a random Boolean model: none, or `bool_search` over the shown variables in
/// input order (largest value first, as in the design of the issue, or smallest first),
/// through an introduced array, in two groups with the helpers last, or by first fail.
fn bool_solve(search: u8, shown: usize, helpers: std::ops::Range<usize>) -> String {
    let names = |vars: &mut dyn Iterator<Item = usize>| {
        let names: Vec<String> = vars.map(|i| format!("x{i}")).collect();
        format!("[{}]", names.join(", "))
    };
    let all = names(&mut (0..shown));
    match search {
        0 => "solve satisfy;\n".to_owned(),
        1 => format!("solve :: bool_search({all}, input_order, indomain_max, complete) satisfy;\n"),
        2 => format!(
            "solve :: bool_search({}, input_order, indomain_min, complete) satisfy;\n",
            names(&mut (0..shown).rev())
        ),
        3 => "solve :: bool_search(s, input_order, indomain_max, complete) satisfy;\n".to_owned(),
        4 => {
            let (first, second) = if helpers.is_empty() {
                (names(&mut (0..shown / 2)), names(&mut (shown / 2..shown)))
            } else {
                (all, names(&mut helpers.clone()))
            };
            format!(
                "solve :: seq_search([bool_search({first}, input_order, indomain_max, complete), \
                 bool_search({second}, input_order, indomain_min, complete)]) satisfy;\n"
            )
        }
        _ => format!("solve :: bool_search({all}, first_fail, indomain_max, complete) satisfy;\n"),
    }
}

/// A random Boolean model: two to five shown booleans (scalars, or one output array as
/// MiniZinc writes a matrix), one to four calls with the helpers they introduce, and a search.
fn random_boolean_model() -> impl Strategy<Value = RandomModel> {
    (
        2usize..=5,
        proptest::collection::vec(bool_call(), 1..=4),
        any::<bool>(),
        0u8..6,
    )
        .prop_map(|(shown, calls, as_array, search)| {
            let mut model = BoolModel::default();
            let annotation = if as_array { "" } else { " :: output_var" };
            for _ in 0..shown {
                model.bool_var(annotation);
            }
            for call in &calls {
                model.write(call);
            }
            let output_array = as_array.then(|| {
                if shown == 4 {
                    vec![(1, 2), (1, 2)]
                } else {
                    vec![(1, shown as i64)]
                }
            });
            let names: Vec<String> = (0..shown).map(|i| format!("x{i}")).collect();
            let names = names.join(", ");
            if let Some(ranges) = &output_array {
                let ranges: Vec<String> = ranges.iter().map(|(l, h)| format!("{l}..{h}")).collect();
                writeln!(
                    model.vars,
                    "array [1..{shown}] of var bool: m :: output_array([{}]) = [{names}];",
                    ranges.join(", ")
                )
                .unwrap();
            }
            // The array the search of MiniZinc's flattening names, as `array1d(m)`.
            writeln!(
                model.vars,
                "array [1..{shown}] of var bool: s :: var_is_introduced = [{names}];"
            )
            .unwrap();
            let solve = bool_solve(search, shown, shown..model.domains.len());
            RandomModel {
                text: format!("{}{}{}{solve}", model.params, model.vars, model.constraints),
                domains: model.domains,
                calls: model.calls,
                shown,
                output_array,
            }
        })
}

/// The solutions `flatzinc::run` prints, each block as it is printed.
fn printed_solutions(out: &str) -> Vec<String> {
    out.split("----------\n")
        .filter(|block| block.contains(" = "))
        .map(str::to_owned)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Every solution of the shown variables, each once, under every search and with `-n`:
    /// however many values the helpers can take below one of them.
    #[test]
    fn boolean_builtins_with_hidden_helpers_list_each_shown_solution_once(
        model in random_boolean_model(),
        free in any::<bool>(),
        asked in prop_oneof![3 => Just(None), 1 => (1u64..=3).prop_map(Some)],
    ) {
        let items = flatzinc::parse(&model.text).expect("the generated model parses");
        let built = flatzinc::build(&items);
        prop_assert!(built.is_ok(), "{}\nrefused: {:?}", model.text, built.err());
        let built = built.unwrap();
        let mut out = Vec::new();
        let options = Options { all: asked.is_none(), solutions: asked, free, ..Options::default() };
        let status = flatzinc::run(&built, &options, &mut out).expect("runs");
        let out = String::from_utf8(out).unwrap();
        let found = printed_solutions(&out);
        let distinct: BTreeSet<String> = found.iter().cloned().collect();
        prop_assert_eq!(distinct.len(), found.len(), "a solution printed twice:\n{}\n{}", model.text, out);
        let expected = expected(&model);
        match asked {
            None => prop_assert_eq!(&distinct, &expected, "{}", model.text),
            Some(wanted) => {
                prop_assert_eq!(found.len() as u64, wanted.min(expected.len() as u64), "{}\n{}", model.text, out);
                prop_assert!(distinct.is_subset(&expected), "{}\n{}", model.text, out);
            }
        }
        if expected.is_empty() {
            prop_assert_eq!(status, Status::Unsatisfiable, "{}", model.text);
            prop_assert_eq!(out.as_str(), "=====UNSATISFIABLE=====\n", "{}", model.text);
        } else if (expected.len() as u64) < asked.unwrap_or(u64::MAX) {
            prop_assert_eq!(status, Status::Complete, "{}", model.text);
            prop_assert!(out.ends_with("==========\n"), "{}", model.text);
        } else {
            // Stopped at the solutions asked for: whether more exist is not claimed.
            prop_assert!(matches!(status, Status::Solutions | Status::Complete), "{}", model.text);
        }
    }
}

/// Calls MiniZinc does not write but FlatZinc allows, which cancel down to a constant: an
/// empty clause is false, and a reified comparison whose result is also its variable argument
/// is true or false whatever the value. Answered as such, never refused as malformed.
///
/// Before the fix in the model's reification, every one was refused with "constraint Linear has an empty
/// scope" (the empty clause reaches `Model::clause` with no literal; the reified comparison
/// reaches `Model::reify_into` with its boolean in its own scope, where the terms cancel).
#[test]
fn degenerate_boolean_calls_are_answered_not_refused() {
    let both = "x = false;\n----------\nx = true;\n----------\n==========\n";
    let none = "=====UNSATISFIABLE=====\n";
    let cases = [
        ("bool_clause([], [])", none),
        // (true <= x) <-> x, and (false < x) <-> x: always.
        ("bool_le_reif(true, x, x)", both),
        ("bool_lt_reif(false, x, x)", both),
        // (x < false) <-> x: x false.
        (
            "bool_lt_reif(x, false, x)",
            "x = false;\n----------\n==========\n",
        ),
        // (true <= x) <-> y, with y = not x: never (its result is another variable).
        ("bool_le_reif(true, x, y)", none),
    ];
    for (call, answer) in cases {
        let text = format!(
            "var bool: x :: output_var;\nvar bool: y;\nconstraint {call};\n\
             constraint bool_not(x, y);\nsolve satisfy;\n"
        );
        let built = flatzinc::build(&flatzinc::parse(&text).expect("parses"));
        let built = built.unwrap_or_else(|e| panic!("{call} refused: {e}"));
        let mut out = Vec::new();
        let options = Options {
            all: true,
            ..Options::default()
        };
        flatzinc::run(&built, &options, &mut out).expect("runs");
        assert_eq!(String::from_utf8(out).unwrap(), answer, "{call}");
    }
}

/// Longer than this, an all-solution run of a small model counts as a hang.
const DEADLINE: Duration = Duration::from_secs(30);

/// Runs `fzn-cspkit` with `flags` on `text` (written to a file named `name`), with
/// [`DEADLINE`]; returns what it printed and whether it ended in time.
fn fzn_cspkit_within(name: &str, text: &str, flags: &[&str]) -> (String, bool) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fzn-boolean-fuzz");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a scratch file");
    let run = output_within(
        Command::new(env!("CARGO_BIN_EXE_fzn-cspkit"))
            .args(flags)
            .arg(&path),
        DEADLINE,
    );
    let out = String::from_utf8_lossy(&run.output.stdout).into_owned();
    if !run.timed_out {
        assert!(
            run.output.status.success(),
            "fzn-cspkit {flags:?} {name}: {}",
            String::from_utf8_lossy(&run.output.stderr)
        );
    }
    (out, !run.timed_out)
}

/// Helpers that nothing defines and the output does not show, with 2^40 values under one
/// solution of the shown variables: the three solutions must all come, each once, and the
/// run must end, whatever the search and however many solutions are asked for.
///
/// Before projected search, the search enumerated the helpers' values below the
/// first solution with `a` true, and fzn-cspkit dropped their repeats one by one; the run
/// did not end before the deadline.
#[test]
fn countless_values_of_hidden_helpers_do_not_hold_up_the_next_solution() {
    let mut model = String::from("var bool: a :: output_var;\nvar bool: b :: output_var;\n");
    for i in 0..40 {
        writeln!(model, "var bool: h{i} :: var_is_introduced;").unwrap();
    }
    model.push_str("constraint bool_clause([a, b], []);\n");
    for i in 0..40 {
        // a \/ h_i: free when a is true.
        writeln!(model, "constraint bool_clause([h{i}, a], []);").unwrap();
    }
    let searches = [
        "solve satisfy;\n",
        "solve :: bool_search([a, b], input_order, indomain_max, complete) satisfy;\n",
        "solve :: bool_search([b, a], input_order, indomain_min, complete) satisfy;\n",
    ];
    let all: BTreeSet<&str> = [
        "a = false;\nb = true;\n",
        "a = true;\nb = false;\n",
        "a = true;\nb = true;\n",
    ]
    .into();
    for search in searches {
        let text = format!("{model}{search}");
        for flags in [&["-a"][..], &["-a", "-f"], &["-n", "3"], &["-n", "4"]] {
            let (out, ended) = fzn_cspkit_within("helpers.fzn", &text, flags);
            let found = printed_solutions(&out);
            let distinct: BTreeSet<&str> = found.iter().map(String::as_str).collect();
            assert!(
                ended,
                "{flags:?} {search}still running after {DEADLINE:?}, {} of 3 solutions printed",
                found.len()
            );
            assert_eq!(found.len(), 3, "{flags:?} {search}{out}");
            assert_eq!(distinct, all, "{flags:?} {search}{out}");
            if flags != ["-n", "3"] {
                assert!(out.ends_with("==========\n"), "{flags:?} {search}{out}");
            }
        }
    }
}

/// A balanced incomplete block design (CSPLib 028) as MiniZinc flattens the model of the
/// issue for a solver without Boolean lex: a `v × b` Boolean incidence matrix `m` (the output
/// array), `bool2int` of each entry in the row sums (= `r`) and column sums (= `k`), of the
/// conjunction of each pair of rows in the pair sums (= `lambda`), rows and columns in
/// non-increasing lex order by the decomposition, and
/// `bool_search(array1d(m), input_order, indomain_max, complete)`.
fn design(v: usize, b: usize, r: i64, k: i64, lambda: i64) -> String {
    let mut model = BoolModel::default();
    let m: Vec<Vec<Arg>> = (0..v)
        .map(|_| (0..b).map(|_| Arg::Var(model.bool_var(""))).collect())
        .collect();
    let ints: Vec<Vec<Arg>> = m
        .iter()
        .map(|row| row.iter().map(|x| model.bool2int(x.clone())).collect())
        .collect();
    let sum = |model: &mut BoolModel, terms: &[Arg], rhs: i64| {
        let ones = vec![1; terms.len()];
        let listed: Vec<String> = terms.iter().map(text_of).collect();
        model.post(
            format!("int_lin_eq({ones:?}, [{}], {rhs})", listed.join(", ")),
            Checked::Linear {
                coefficients: ones,
                args: terms.to_vec(),
                rhs,
                at_most: false,
            },
        );
    };
    for row in &ints {
        sum(&mut model, row, r);
    }
    for j in 0..b {
        let column: Vec<Arg> = ints.iter().map(|row| row[j].clone()).collect();
        sum(&mut model, &column, k);
    }
    for i1 in 0..v {
        for i2 in i1 + 1..v {
            let mut terms = Vec::new();
            for (x, y) in m[i1].iter().zip(&m[i2]) {
                let inputs = vec![x.clone(), y.clone()];
                let c = model.defined_helper();
                model.post(
                    format!(
                        "array_bool_and({}, x{c}) :: defines_var(x{c})",
                        bool_list(&inputs)
                    ),
                    Checked::Array {
                        all: true,
                        inputs,
                        result: Arg::Var(c),
                    },
                );
                terms.push(model.bool2int(Arg::Var(c)));
            }
            sum(&mut model, &terms, lambda);
        }
    }
    for i in 0..v - 1 {
        model.lex_decomposition(&m[i + 1], &m[i], false);
    }
    for j in 0..b - 1 {
        let column = |j: usize| -> Vec<Arg> { m.iter().map(|row| row[j].clone()).collect() };
        model.lex_decomposition(&column(j + 1), &column(j), false);
    }
    let names: Vec<String> = m.iter().flatten().map(text_of).collect();
    let names = names.join(", ");
    let n = v * b;
    writeln!(
        model.vars,
        "array [1..{n}] of var bool: m :: output_array([1..{v}, 1..{b}]) = [{names}];\n\
         array [1..{n}] of var bool: s :: var_is_introduced = [{names}];"
    )
    .unwrap();
    format!(
        "{}{}{}solve :: bool_search(s, input_order, indomain_max, complete) satisfy;\n",
        model.params, model.vars, model.constraints
    )
}

/// The matrix of a solution `m = array2d(1..v, 1..b, [...]);`.
fn matrix(solution: &str, b: usize) -> Vec<Vec<bool>> {
    let values = solution
        .trim()
        .strip_prefix("m = array2d(")
        .and_then(|s| s.split_once('['))
        .and_then(|(_, s)| s.strip_suffix("]);"))
        .unwrap_or_else(|| panic!("not a matrix: {solution}"));
    let values: Vec<bool> = values
        .split(", ")
        .map(|v| v.parse().expect("a boolean"))
        .collect();
    values.chunks(b).map(<[bool]>::to_vec).collect()
}

/// The designs of the issue's model in FlatZinc, every solution listed by `fzn-cspkit -a` and
/// checked: a design, rows and columns in non-increasing lex order, each once, as many as
/// Gecode lists on the MiniZinc model (92 for the 2-(8, 4, 3) design of the issue, 0.6 s and
/// 1,185 nodes for Gecode; 12 and 1 for the smaller ones).
///
/// Before projected search: past the first solution, the search enumerated the
/// values of the lex decomposition's helpers below each one (millions), and the run did not
/// end before the deadline (it now lists them all in well under a second).
#[test]
fn every_solution_of_the_boolean_designs_of_the_issue_is_listed_in_time() {
    // (v, b, r, k, lambda, solutions)
    let designs = [
        (7, 7, 3, 3, 1, 1),
        (7, 14, 6, 3, 2, 12),
        (8, 14, 7, 4, 3, 92),
    ];
    for (v, b, r, k, lambda, count) in designs {
        let name = format!("bibd-{v}-{b}-{r}-{k}-{lambda}");
        let (out, ended) = fzn_cspkit_within(
            &format!("{name}.fzn"),
            &design(v, b, r as i64, k as i64, lambda as i64),
            &["-a"],
        );
        let found = printed_solutions(&out);
        assert!(
            ended,
            "{name}: still running after {DEADLINE:?}, {} of {count} solutions printed",
            found.len()
        );
        let distinct: BTreeSet<&String> = found.iter().collect();
        assert_eq!(
            distinct.len(),
            found.len(),
            "{name}: a solution printed twice"
        );
        assert_eq!(found.len(), count, "{name}\n{out}");
        assert!(out.ends_with("==========\n"), "{name}\n{out}");
        for solution in &found {
            let m = matrix(solution, b);
            let column = |j: usize| -> Vec<bool> { m.iter().map(|row| row[j]).collect() };
            let ones = |xs: &[bool]| xs.iter().filter(|&&x| x).count();
            assert!(m.iter().all(|row| ones(row) == r), "{name}: {solution}");
            assert!((0..b).all(|j| ones(&column(j)) == k), "{name}: {solution}");
            for i1 in 0..v {
                for i2 in i1 + 1..v {
                    let both = (0..b).filter(|&j| m[i1][j] && m[i2][j]).count();
                    assert_eq!(both, lambda, "{name}: {solution}");
                }
            }
            assert!(m.windows(2).all(|w| w[1] <= w[0]), "{name}: {solution}");
            assert!(
                (1..b).all(|j| column(j) <= column(j - 1)),
                "{name}: {solution}"
            );
        }
    }
}

/// A model of `n` variables over `0..=2` with `int_ne` and `int_lin_le` calls, searched by
/// two `int_search` groups in `input_order`: the variables of `order` split at `split`, the
/// first group with `indomain_min`. Returns the text and the constraints as a test.
fn ordered_model(
    n: usize,
    order: &[usize],
    split: usize,
    pairs: &[(usize, usize)],
    sums: &[(usize, usize, i64)],
) -> (String, impl Fn(&[i64]) -> bool) {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("var 0..2: x{i} :: output_var;\n"));
    }
    let pairs: Vec<(usize, usize)> = pairs
        .iter()
        .map(|&(a, b)| (a % n, b % n))
        .filter(|(a, b)| a != b)
        .collect();
    let sums: Vec<(usize, usize, i64)> = sums.iter().map(|&(a, b, c)| (a % n, b % n, c)).collect();
    for &(a, b) in &pairs {
        text.push_str(&format!("constraint int_ne(x{a}, x{b});\n"));
    }
    for &(a, b, c) in &sums {
        text.push_str(&format!(
            "constraint int_lin_le([1, 1], [x{a}, x{b}], {c});\n"
        ));
    }
    let names = |vars: &[usize]| {
        let names: Vec<String> = vars.iter().map(|i| format!("x{i}")).collect();
        names.join(", ")
    };
    let (first, second) = order.split_at(split.min(order.len()));
    text.push_str(&format!(
        "solve :: seq_search([int_search([{}], input_order, indomain_min, complete), \
         int_search([{}], input_order, indomain_min, complete)]) satisfy;\n",
        names(first),
        names(second)
    ));
    let holds = move |values: &[i64]| {
        pairs.iter().all(|&(a, b)| values[a] != values[b])
            && sums.iter().all(|&(a, b, c)| values[a] + values[b] <= c)
    };
    (text, holds)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The search annotations' input order keeps, down each path, where the choice above it
    /// found its variable: the solutions must still come in the lexicographic order of the
    /// annotated variable order, every one of them, as a plain depth-first search lists them.
    #[test]
    fn annotated_input_order_lists_solutions_in_lexicographic_order(
        order in Just((0..7).collect::<Vec<usize>>()).prop_shuffle(),
        split in 0usize..8,
        pairs in proptest::collection::vec((0usize..7, 0usize..7), 0..6),
        sums in proptest::collection::vec((0usize..7, 0usize..7, 0i64..4), 0..4),
    ) {
        let n = 7;
        let (text, holds) = ordered_model(n, &order, split, &pairs, &sums);
        let items = flatzinc::parse(&text).expect("the generated model parses");
        let built = flatzinc::build(&items).expect("builds");
        let mut out = Vec::new();
        let options = Options { all: true, ..Options::default() };
        flatzinc::run(&built, &options, &mut out).expect("runs");
        let out = String::from_utf8(out).unwrap();
        let found: Vec<Vec<i64>> = out
            .split("----------\n")
            .filter(|block| block.contains(" = "))
            .map(|block| {
                let mut values = vec![0; n];
                for line in block.lines() {
                    let (name, value) = line.trim_end_matches(';').split_once(" = ").unwrap();
                    values[name[1..].parse::<usize>().unwrap()] = value.parse().unwrap();
                }
                // In the annotation's order, to compare lexicographically.
                order.iter().map(|&i| values[i]).collect()
            })
            .collect();
        let mut expected = Vec::new();
        for code in 0..3usize.pow(n as u32) {
            let values: Vec<i64> = (0..n).map(|i| (code / 3usize.pow(i as u32) % 3) as i64).collect();
            if holds(&values) {
                expected.push(order.iter().map(|&i| values[i]).collect::<Vec<i64>>());
            }
        }
        expected.sort();
        prop_assert_eq!(found, expected, "{}", text);
    }
}

const VAR_CHOICES: [&str; 8] = [
    "input_order",
    "first_fail",
    "anti_first_fail",
    "smallest",
    "largest",
    "dom_w_deg",
    "most_constrained",
    "occurrence",
];
const VALUE_CHOICES: [&str; 6] = [
    "indomain_min",
    "indomain_max",
    "indomain_median",
    "indomain_split",
    "indomain_reverse_split",
    "indomain_random",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Every variable and value choice of a search annotation, and free search (dom/wdeg with
    /// restarts, also what a model without annotations gets), list every solution once.
    #[test]
    fn every_search_annotation_and_free_search_list_every_solution_once(
        order in Just((0..6).collect::<Vec<usize>>()).prop_shuffle(),
        split in 0usize..7,
        choices in (0usize..8, 0usize..6, 0usize..8, 0usize..6),
        pairs in proptest::collection::vec((0usize..6, 0usize..6), 0..6),
        sums in proptest::collection::vec((0usize..6, 0usize..6, 0i64..4), 0..4),
        search in 0usize..3,
    ) {
        let n = 6;
        let (text, holds) = ordered_model(n, &order, split, &pairs, &sums);
        let (model, _) = text.rsplit_once("solve ").expect("a solve item");
        let names = |vars: &[usize]| -> String {
            vars.iter().map(|i| format!("x{i}")).collect::<Vec<_>>().join(", ")
        };
        let (first, second) = order.split_at(split.min(order.len()));
        let solve = match search {
            // Two annotated groups, whatever their choices.
            0 | 1 => format!(
                "solve :: seq_search([int_search([{}], {}, {}, complete), \
                 int_search([{}], {}, {}, complete)]) satisfy;\n",
                names(first), VAR_CHOICES[choices.0], VALUE_CHOICES[choices.1],
                names(second), VAR_CHOICES[choices.2], VALUE_CHOICES[choices.3],
            ),
            // No annotation: free search.
            _ => "solve satisfy;\n".to_owned(),
        };
        let text = format!("{model}{solve}");
        let items = flatzinc::parse(&text).expect("the generated model parses");
        let built = flatzinc::build(&items).expect("builds");
        let mut out = Vec::new();
        let options = Options { all: true, free: search == 1, ..Options::default() };
        flatzinc::run(&built, &options, &mut out).expect("runs");
        let out = String::from_utf8(out).unwrap();
        let mut found: Vec<Vec<i64>> = out
            .split("----------\n")
            .filter(|block| block.contains(" = "))
            .map(|block| {
                let mut values = vec![0; n];
                for line in block.lines() {
                    let (name, value) = line.trim_end_matches(';').split_once(" = ").unwrap();
                    values[name[1..].parse::<usize>().unwrap()] = value.parse().unwrap();
                }
                values
            })
            .collect();
        found.sort();
        let expected: Vec<Vec<i64>> = (0..3usize.pow(n as u32))
            .map(|code| (0..n).map(|i| (code / 3usize.pow(i as u32) % 3) as i64).collect())
            .filter(|values: &Vec<i64>| holds(values))
            .collect();
        let mut expected = expected;
        expected.sort();
        prop_assert_eq!(found, expected, "{}", text);
    }
}

#[test]
fn indomain_split_in_every_group_bisects() {
    let text = "var 0..9: x :: output_var;\nvar 0..9: y :: output_var;\n\
                constraint int_lin_eq([1, 1], [x, y], 9);\n\
                solve :: int_search([x, y], dom_w_deg, indomain_split, complete) satisfy;\n";
    let built = flatzinc::build(&flatzinc::parse(text).unwrap()).unwrap();
    assert_eq!(built.branching(), cspkit::Branching::Split);
    let mixed = text.replace(
        "int_search([x, y], dom_w_deg, indomain_split, complete)",
        "seq_search([int_search([x], input_order, indomain_split, complete), \
         int_search([y], input_order, indomain_min, complete)])",
    );
    let built = flatzinc::build(&flatzinc::parse(&mixed).unwrap()).unwrap();
    assert_eq!(built.branching(), cspkit::Branching::Assign);
}
