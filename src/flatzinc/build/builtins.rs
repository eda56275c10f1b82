//! The builtins: one table of names and the functions that post them, from which both the
//! dispatch and the list of supported builtins ([`SUPPORTED`]) come.
//!
//! A `_reif` or `_imp` form is listed by its full name; its last argument, the boolean, is read
//! before the table is, and reaches the function as [`Call::reified`].

use std::collections::HashMap;

use super::Builder;
use super::values::{Args, Val};
use crate::constraints::{
    AllDifferent, Among, Arithmetic, Circuit, Comparison, Cumulative, Dfa, Disjunctive, Element,
    Extremum, GlobalCardinality, Inverse, LexLessEq, Member, Operation, Regular, Subcircuit, Table,
};
use crate::flatzinc::parse::{FznError, Pos};
use crate::ids::VarId;
use crate::model::{BoolVar, LinearExpr};

/// A call of a builtin, as its function receives it.
pub(super) struct Call<'a, 'c> {
    /// The builtin's name, as the model writes it (`int_le_reif`).
    name: &'c str,
    /// The name without its `_reif` or `_imp` suffix (`int_le`).
    base: &'c str,
    /// The arguments.
    args: Args<'a>,
    /// Where the call is.
    pos: Pos,
    /// For a `_reif` form, the boolean and `true`; for an `_imp` form, the boolean and `false`.
    reified: Option<(BoolVar, bool)>,
}

impl<'a> Call<'a, '_> {
    /// The value of argument `i`.
    fn arg(&self, builder: &Builder<'a>, i: usize) -> Result<Val<'a>, FznError> {
        builder.arg(self.args, i, self.name, self.pos)
    }

    /// Arguments 0, 1 and 2, each converted by `convert` once all three are read.
    fn three<T>(
        &self,
        builder: &mut Builder<'a>,
        convert: impl Fn(&mut Builder<'a>, &Val<'a>, Pos) -> Result<T, FznError>,
    ) -> Result<[T; 3], FznError> {
        let (a, b, c) = (
            self.arg(builder, 0)?,
            self.arg(builder, 1)?,
            self.arg(builder, 2)?,
        );
        Ok([
            convert(builder, &a, self.pos)?,
            convert(builder, &b, self.pos)?,
            convert(builder, &c, self.pos)?,
        ])
    }
}

/// The function that posts a builtin.
pub(super) type Post = for<'a, 'c> fn(&mut Builder<'a>, &Call<'a, 'c>) -> Result<(), FznError>;

/// Every builtin cspkit reads, by name, with the function that posts it.
const BUILTINS: &[(&str, Post)] = &[
    ("int_eq", compare),
    ("int_ne", compare),
    ("int_le", compare),
    ("int_lt", compare),
    ("int_eq_reif", compare),
    ("int_ne_reif", compare),
    ("int_le_reif", compare),
    ("int_lt_reif", compare),
    ("int_eq_imp", compare),
    ("int_ne_imp", compare),
    ("int_le_imp", compare),
    ("int_lt_imp", compare),
    ("int_lin_eq", linear),
    ("int_lin_ne", linear),
    ("int_lin_le", linear),
    ("int_lin_eq_reif", linear),
    ("int_lin_ne_reif", linear),
    ("int_lin_le_reif", linear),
    ("int_lin_eq_imp", linear),
    ("int_lin_ne_imp", linear),
    ("int_lin_le_imp", linear),
    ("int_plus", plus_minus),
    ("int_minus", plus_minus),
    ("int_times", arithmetic),
    ("int_div", arithmetic),
    ("int_mod", arithmetic),
    ("int_abs", arithmetic),
    ("int_pow", arithmetic),
    ("int_min", min_max),
    ("int_max", min_max),
    ("array_int_element", element),
    ("array_var_int_element", element),
    ("array_bool_element", element),
    ("array_var_bool_element", element),
    ("array_int_maximum", array_extremum),
    ("array_int_minimum", array_extremum),
    ("array_bool_and", array_and_or),
    ("array_bool_or", array_and_or),
    ("array_bool_xor", array_xor),
    ("bool2int", bool2int),
    ("bool_eq", compare),
    ("bool_ne", compare),
    ("bool_not", bool_not),
    ("bool_le", compare),
    ("bool_lt", compare),
    ("bool_and", bool_and_or_xor),
    ("bool_or", bool_and_or_xor),
    ("bool_xor", bool_and_or_xor),
    ("bool_clause", clause),
    ("bool_eq_reif", compare),
    ("bool_ne_reif", compare),
    ("bool_le_reif", compare),
    ("bool_lt_reif", compare),
    ("bool_eq_imp", compare),
    ("bool_ne_imp", compare),
    ("bool_le_imp", compare),
    ("bool_lt_imp", compare),
    ("bool_lin_eq", linear),
    ("bool_lin_le", linear),
    ("bool_lin_eq_reif", linear),
    ("bool_lin_le_reif", linear),
    ("bool_lin_eq_imp", linear),
    ("bool_lin_le_imp", linear),
    ("set_in", set_in),
    ("set_in_reif", set_in),
    ("set_in_imp", set_in),
    ("fzn_all_different_int", all_different),
    ("fzn_table_int", table),
    ("fzn_table_bool", table),
    ("fzn_global_cardinality", global_cardinality),
    ("fzn_global_cardinality_closed", global_cardinality),
    ("fzn_global_cardinality_low_up", global_cardinality),
    ("fzn_global_cardinality_low_up_closed", global_cardinality),
    ("cspkit_circuit", circuit),
    ("cspkit_inverse", inverse),
    ("fzn_regular", regular),
    ("fzn_lex_lesseq_int", lex),
    ("fzn_lex_less_int", lex),
    ("fzn_lex_lesseq_bool", lex),
    ("fzn_lex_less_bool", lex),
    ("cspkit_count_eq", count_eq),
    ("cspkit_cumulative", cumulative),
    ("cspkit_disjunctive", disjunctive),
    ("cspkit_subcircuit", circuit),
    ("fzn_among", among),
];

/// The names of the constraints cspkit reads, for error messages and the documentation: those
/// of the builtin table, in its order.
pub const SUPPORTED: &[&str] = &names::<{ BUILTINS.len() }>(BUILTINS);

/// The names of `table`, in order.
const fn names<const N: usize>(table: &[(&'static str, Post)]) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = table[i].0;
        i += 1;
    }
    names
}

/// The builtin table, for looking a name up.
pub(super) fn by_name() -> HashMap<&'static str, Post> {
    BUILTINS.iter().copied().collect()
}

impl<'a> Builder<'a> {
    /// Posts the builtin `name` called with `args`.
    pub(super) fn constraint(
        &mut self,
        name: &str,
        args: Args<'a>,
        pos: Pos,
    ) -> Result<(), FznError> {
        // `_reif` and `_imp` forms: the last argument is the boolean.
        let (base, mode) = if let Some(base) = name.strip_suffix("_reif") {
            (base, Some(true))
        } else if let Some(base) = name.strip_suffix("_imp") {
            (base, Some(false))
        } else {
            (name, None)
        };
        let reified = match mode {
            Some(full) => {
                let last = args
                    .len()
                    .checked_sub(1)
                    .ok_or_else(|| FznError::at(pos, format!("{name}: no arguments")))?;
                let b = self.arg(args, last, name, pos)?;
                Some((self.bool_var(&b, pos)?, full))
            }
            None => None,
        };
        let call = Call {
            name,
            base,
            args,
            pos,
            reified,
        };
        match self.builtins.get(name) {
            Some(post) => post(self, &call),
            None if reified.is_some() => Err(FznError::unsupported(
                pos,
                format!("unsupported constraint `{name}`"),
            )),
            None => Err(FznError::unsupported(
                pos,
                format!(
                    "unsupported constraint `{name}` (cspkit reads the builtins listed by `cspkit fzn --help`, and its own MiniZinc library)"
                ),
            )),
        }
    }
}

/// The comparison a builtin's suffix names (`eq`, `ne`, `le`, `lt`).
fn comparison(op: &str) -> Option<Comparison> {
    match op {
        "eq" => Some(Comparison::Eq),
        "ne" => Some(Comparison::Ne),
        "le" => Some(Comparison::Le),
        "lt" => Some(Comparison::Lt),
        _ => None,
    }
}

/// `int_eq`, `int_ne`, `int_le`, `int_lt`, `bool_eq`, `bool_le`, `bool_lt`, `bool_ne`: a
/// comparison of two integers or booleans, its reification and its implication.
fn compare<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (base, pos, reified) = (call.base, call.pos, call.reified);
    let op = comparison(&base[base.len() - 2..]).expect("a comparison suffix");
    let (a, b) = (call.arg(builder, 0)?, call.arg(builder, 1)?);
    let (a, b) = (builder.expr_of(&a, pos)?, builder.expr_of(&b, pos)?);
    builder.post_linear(pos, a.compare(op, b), reified)
}

/// `int_lin_eq`, `int_lin_ne`, `int_lin_le`, `bool_lin_eq`, `bool_lin_le`: a linear comparison,
/// its reification and its implication.
fn linear<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (name, base, pos, reified) = (call.name, call.base, call.pos, call.reified);
    let op = comparison(&base[base.len() - 2..]).expect("a comparison suffix");
    let coefficients = builder.ints(&call.arg(builder, 0)?, pos)?;
    let vars = call.arg(builder, 1)?;
    let vars = builder.vars(&vars, pos)?;
    // bool_lin_eq's right-hand side may be a variable.
    let rhs = call.arg(builder, 2)?;
    let rhs = builder.expr_of(&rhs, pos)?;
    if coefficients.len() != vars.len() {
        return Err(FznError::at(
            pos,
            format!(
                "{name}: {} coefficients for {} variables",
                coefficients.len(),
                vars.len()
            ),
        ));
    }
    let terms: Vec<(i64, VarId)> = coefficients.into_iter().zip(vars).collect();
    let expr = LinearExpr::new(&terms, 0);
    if expr.has_overflowed() {
        return Err(FznError::unsupported(
            pos,
            format!("{name}: coefficients overflow"),
        ));
    }
    builder.post_linear(pos, expr.compare(op, rhs), reified)
}

/// `set_in`, its reification and its implication: a variable in a constant set.
fn set_in<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let x = call.arg(builder, 0)?;
    let x = builder.var(&x, pos)?;
    let set = Builder::set(&call.arg(builder, 1)?, pos)?;
    match call.reified {
        None => builder
            .model
            .restrict(x, set)
            .map_err(|e| Builder::model_error(pos, e)),
        Some((b, true)) => builder.post(pos, Member::reified(x, &set, b.var())),
        Some((b, false)) => builder.post(pos, Member::implied(x, &set, b.var())),
    }
}

/// `int_plus`, `int_minus`: a sum or a difference of two terms.
fn plus_minus<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (base, pos) = (call.base, call.pos);
    let [a, b, c] = call.three(builder, Builder::expr_of)?;
    let lhs = if base == "int_plus" { a + b } else { a - b };
    builder.post_linear(pos, lhs.eq(c), None)
}

/// `int_times`, `int_div`, `int_mod`, `int_pow`, `int_abs`: a product, a quotient, a remainder,
/// a power or an absolute value.
fn arithmetic<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (base, pos) = (call.base, call.pos);
    let operation = match base {
        "int_times" => Operation::Times,
        "int_div" => Operation::Div,
        "int_mod" => Operation::Mod,
        "int_pow" => Operation::Pow,
        _ => Operation::Abs,
    };
    let x = call.arg(builder, 0)?;
    let x = builder.var(&x, pos)?;
    if operation == Operation::Abs {
        let z = call.arg(builder, 1)?;
        let z = builder.var(&z, pos)?;
        return builder.post(pos, Arithmetic::abs(x, z));
    }
    let (y, z) = (call.arg(builder, 1)?, call.arg(builder, 2)?);
    let (y, z) = (builder.var(&y, pos)?, builder.var(&z, pos)?);
    builder.post(pos, Arithmetic::new(operation, x, y, z))
}

/// `int_min`, `int_max`: the smaller or the larger of two variables.
fn min_max<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (base, pos) = (call.base, call.pos);
    let [a, b, c] = call.three(builder, Builder::var)?;
    if base == "int_min" {
        builder.post(pos, Extremum::minimum(&[a, b], c))
    } else {
        builder.post(pos, Extremum::maximum(&[a, b], c))
    }
}

/// `array_int_maximum`, `array_int_minimum`: the smallest or the largest of an array.
fn array_extremum<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (base, pos) = (call.base, call.pos);
    let m = call.arg(builder, 0)?;
    let m = builder.var(&m, pos)?;
    let xs = call.arg(builder, 1)?;
    let xs = builder.vars(&xs, pos)?;
    if base == "array_int_maximum" {
        builder.post(pos, Extremum::maximum(&xs, m))
    } else {
        builder.post(pos, Extremum::minimum(&xs, m))
    }
}

/// `array_int_element`, `array_bool_element`, `array_var_int_element`,
/// `array_var_bool_element`: an array indexed by a variable, counted from 1.
fn element<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (name, base, pos) = (call.name, call.base, call.pos);
    let index = call.arg(builder, 0)?;
    let index = builder.var(&index, pos)?;
    let array = call.arg(builder, 1)?;
    let value = call.arg(builder, 2)?;
    let value = builder.var(&value, pos)?;
    let len = Builder::elements(&array, pos)?.len();
    if len == 0 {
        return Err(FznError::at(pos, format!("{name}: an empty array")));
    }
    // FlatZinc counts from 1; Element from 0: a copy of the first entry at 0,
    // which the index cannot take.
    builder
        .model
        .restrict(index, 1..=len as i32)
        .map_err(|e| Builder::model_error(pos, e))?;
    if base.starts_with("array_var") {
        let mut vars = builder.vars(&array, pos)?;
        vars.insert(0, vars[0]);
        builder.post(pos, Element::with_variables(&vars, index, value))
    } else {
        let mut values = builder.ints32_after(1, &array, pos)?;
        values[0] = values[1];
        builder.post(pos, Element::new(&values, index, value))
    }
}

/// `array_bool_and`, `array_bool_or`: a conjunction or a disjunction of an array of booleans,
/// into a boolean.
fn array_and_or<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (base, pos) = (call.base, call.pos);
    let inputs = call.arg(builder, 0)?;
    let inputs = builder.bools(&inputs, pos)?;
    let r = call.arg(builder, 1)?;
    let r = builder.bool_var(&r, pos)?;
    let result = if base == "array_bool_and" {
        builder.model.and(&inputs, r)
    } else {
        builder.model.or(&inputs, r)
    };
    result.map_err(|e| Builder::model_error(pos, e))
}

/// `array_bool_xor`: an odd number of an array of booleans true.
fn array_xor<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    // An odd number of them true: their sum is 2k + 1.
    let inputs = call.arg(builder, 0)?;
    let inputs = builder.vars(&inputs, pos)?;
    let half = builder
        .model
        .new_var(0..=inputs.len() as i32 / 2)
        .map_err(|e| Builder::model_error(pos, e))?;
    let sum = LinearExpr::sum(&inputs);
    builder.post_linear(pos, sum.eq(LinearExpr::from(half) * 2 + 1), None)
}

/// `bool2int`: a boolean equal to an integer.
fn bool2int<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let (a, b) = (call.arg(builder, 0)?, call.arg(builder, 1)?);
    let (a, b) = (builder.expr_of(&a, pos)?, builder.expr_of(&b, pos)?);
    builder.post_linear(pos, a.eq(b), None)
}

/// `bool_not`: a negation.
fn bool_not<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let (a, b) = (call.arg(builder, 0)?, call.arg(builder, 1)?);
    let (a, b) = (builder.expr_of(&a, pos)?, builder.expr_of(&b, pos)?);
    builder.post_linear(pos, (a + b).eq(1), None)
}

/// `bool_and`, `bool_or`, `bool_xor`: a conjunction, a disjunction or an exclusive or of two
/// booleans.
fn bool_and_or_xor<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (base, pos) = (call.base, call.pos);
    let (a, b) = (call.arg(builder, 0)?, call.arg(builder, 1)?);
    let (a, b) = (builder.bool_var(&a, pos)?, builder.bool_var(&b, pos)?);
    if call.args.len() == 2 && base == "bool_xor" {
        // bool_xor(a, b): a ≠ b.
        return builder.post_linear(pos, (LinearExpr::from(a) + b).eq(1), None);
    }
    let r = call.arg(builder, 2)?;
    let r = builder.bool_var(&r, pos)?;
    let result = match base {
        "bool_and" => builder.model.and(&[a, b], r),
        "bool_or" => builder.model.or(&[a, b], r),
        _ => builder.model.xor(a, b, r),
    };
    result.map_err(|e| Builder::model_error(pos, e))
}

/// `bool_clause`: a clause: one of the positive literals true, or one of the negative ones false.
fn clause<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let (p, n) = (call.arg(builder, 0)?, call.arg(builder, 1)?);
    let (p, n) = (builder.bools(&p, pos)?, builder.bools(&n, pos)?);
    if p.is_empty() && n.is_empty() {
        return builder.post_false(pos); // The empty clause.
    }
    builder
        .model
        .clause(&p, &n)
        .map_err(|e| Builder::model_error(pos, e))
}

/// `fzn_all_different_int`: all different.
fn all_different<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let xs = call.arg(builder, 0)?;
    let xs = builder.vars(&xs, pos)?;
    if xs.is_empty() {
        return Ok(());
    }
    builder.post(pos, AllDifferent::new(&xs))
}

/// `fzn_table_int`, `fzn_table_bool`: the variables equal to one row of a table.
fn table<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (name, pos) = (call.name, call.pos);
    let xs = call.arg(builder, 0)?;
    let xs = builder.vars(&xs, pos)?;
    let flat = builder.ints32(&call.arg(builder, 1)?, pos)?;
    if xs.is_empty() {
        return Ok(());
    }
    if flat.len() % xs.len() != 0 {
        return Err(FznError::at(
            pos,
            format!(
                "{name}: {} table entries for {} variables",
                flat.len(),
                xs.len()
            ),
        ));
    }
    let tuples: Vec<Vec<i32>> = flat.chunks(xs.len()).map(<[i32]>::to_vec).collect();
    let table = Table::new(&xs, &tuples).map_err(|e| Builder::model_error(pos, e))?;
    builder.post(pos, table)
}

/// `fzn_global_cardinality`, `fzn_global_cardinality_closed`, `fzn_global_cardinality_low_up`,
/// `fzn_global_cardinality_low_up_closed`: how many times each value is taken, counted by
/// variables or bounded by constants.
fn global_cardinality<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (base, pos) = (call.base, call.pos);
    let xs = call.arg(builder, 0)?;
    let xs = builder.vars(&xs, pos)?;
    let cover = builder.ints32(&call.arg(builder, 1)?, pos)?;
    let gcc = if base.contains("low_up") {
        let low = builder.ints(&call.arg(builder, 2)?, pos)?;
        let high = builder.ints(&call.arg(builder, 3)?, pos)?;
        if low.len() != high.len() || low.iter().zip(&high).any(|(l, h)| h < l || *h < 0) {
            return builder.post_false(pos); // an empty range
        }
        let clamp = |v: i64| v.clamp(0, u32::MAX.into()) as u32;
        let bounds: Vec<(u32, u32)> = low
            .iter()
            .zip(&high)
            .map(|(&l, &h)| (clamp(l), clamp(h)))
            .collect();
        GlobalCardinality::with_bounds(&xs, &cover, &bounds)
    } else {
        let counts = call.arg(builder, 2)?;
        let counts = builder.vars(&counts, pos)?;
        GlobalCardinality::new(&xs, &cover, &counts)
    };
    let gcc = gcc.map_err(|e| Builder::model_error(pos, e))?;
    builder.post(
        pos,
        if base.ends_with("closed") {
            gcc.closed()
        } else {
            gcc
        },
    )
}

/// `cspkit_circuit`, `cspkit_subcircuit`: one circuit through every node, or through some
/// nodes with the others pointing to themselves (cspkit's library).
fn circuit<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let xs = call.arg(builder, 0)?;
    let xs = builder.vars(&xs, pos)?;
    let base_node = Builder::to_i32(builder.int_const(&call.arg(builder, 1)?, pos)?, pos)?;
    if xs.is_empty() {
        return Ok(());
    }
    if call.base == "cspkit_subcircuit" {
        builder.post(pos, Subcircuit::with_base(&xs, base_node))
    } else {
        builder.post(pos, Circuit::with_base(&xs, base_node))
    }
}

/// `cspkit_inverse`: two arrays inverse of each other, each from its first index (cspkit's
/// library).
fn inverse<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let f = call.arg(builder, 0)?;
    let f = builder.vars(&f, pos)?;
    let f_base = Builder::to_i32(builder.int_const(&call.arg(builder, 1)?, pos)?, pos)?;
    let g = call.arg(builder, 2)?;
    let g = builder.vars(&g, pos)?;
    let g_base = Builder::to_i32(builder.int_const(&call.arg(builder, 3)?, pos)?, pos)?;
    if f.is_empty() && g.is_empty() {
        return Ok(());
    }
    // `with_bases` takes each array's first index: f's positions are g's values.
    let inverse =
        Inverse::with_bases(&f, f_base, &g, g_base).map_err(|e| Builder::model_error(pos, e))?;
    builder.post(pos, inverse)
}

/// `fzn_regular`: a word of an automaton, states and symbols counted from 1.
fn regular<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let xs = call.arg(builder, 0)?;
    let xs = builder.vars(&xs, pos)?;
    let states = builder.int_const(&call.arg(builder, 1)?, pos)?;
    let symbols = builder.int_const(&call.arg(builder, 2)?, pos)?;
    let table = builder.ints(&call.arg(builder, 3)?, pos)?;
    let start = builder.int_const(&call.arg(builder, 4)?, pos)?;
    let accepting = match call.arg(builder, 5)? {
        Val::Set(values) => values,
        _ => {
            return Err(FznError::at(
                pos,
                "fzn_regular: the accepting states are a set",
            ));
        }
    };
    let (q, s) = (
        usize::try_from(states).unwrap_or(0),
        usize::try_from(symbols).unwrap_or(0),
    );
    if Some(table.len()) != q.checked_mul(s) || q == 0 || start < 1 || start as usize > q {
        return Err(FznError::at(
            pos,
            "fzn_regular: the transition table does not match Q × S",
        ));
    }
    // States 1..=Q become 0..Q; state 0 (failure) has no transition.
    let mut transitions = Vec::new();
    for (i, &to) in table.iter().enumerate() {
        if to >= 1 && to as usize <= q {
            transitions.push((i / s, (i % s + 1) as i32, to as usize - 1));
        }
    }
    let accepting: Vec<usize> = accepting
        .iter()
        .filter(|&&f| f >= 1 && f as usize <= q)
        .map(|&f| f as usize - 1)
        .collect();
    let dfa = Dfa::new(q, start as usize - 1, &accepting, &transitions)
        .map_err(|e| Builder::model_error(pos, e))?;
    if xs.is_empty() {
        return if dfa.accepts(&[]) {
            Ok(())
        } else {
            builder.post_false(pos)
        };
    }
    builder.post(pos, Regular::new(&xs, dfa))
}

/// `fzn_lex_lesseq_int`, `fzn_lex_less_int`, `fzn_lex_lesseq_bool`, `fzn_lex_less_bool`: an
/// array lexicographically less than (or equal to) another.
fn lex<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let (base, pos) = (call.base, call.pos);
    let (x, y) = (call.arg(builder, 0)?, call.arg(builder, 1)?);
    let (x, y) = (builder.vars(&x, pos)?, builder.vars(&y, pos)?);
    let strict = base.starts_with("fzn_lex_less_");
    if x.is_empty() && y.is_empty() {
        return if strict {
            builder.post_false(pos)
        } else {
            Ok(())
        };
    }
    builder.post(
        pos,
        if strict {
            LexLessEq::strict(&x, &y)
        } else {
            LexLessEq::new(&x, &y)
        },
    )
}

/// `cspkit_count_eq`: how many variables take a value (cspkit's library).
fn count_eq<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let xs = call.arg(builder, 0)?;
    let xs = builder.vars(&xs, pos)?;
    let value = Builder::to_i32(builder.int_const(&call.arg(builder, 1)?, pos)?, pos)?;
    let count = call.arg(builder, 2)?;
    let count = builder.var(&count, pos)?;
    builder.post(pos, Among::value(&xs, value, count))
}

/// `cspkit_cumulative`: tasks sharing a resource of a capacity (cspkit's library).
fn cumulative<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let (s, d, r, b) = (
        call.arg(builder, 0)?,
        call.arg(builder, 1)?,
        call.arg(builder, 2)?,
        call.arg(builder, 3)?,
    );
    let starts = builder.vars(&s, pos)?;
    // Tasks of fixed durations and demands: their starts are all there is to
    // decide (not so for tasks whose mode or machine is still to be chosen).
    let mut fixed_tasks = false;
    let cumulative = match (
        builder.ints(&d, pos),
        builder.ints(&r, pos),
        builder.int_const(&b, pos),
    ) {
        (Ok(d), Ok(r), Ok(b)) => {
            let narrow = |values: Vec<i64>| -> Result<Vec<i32>, FznError> {
                values
                    .into_iter()
                    .map(|v| Builder::to_i32(v, pos))
                    .collect()
            };
            fixed_tasks = true;
            Cumulative::new(&starts, &narrow(d)?, &narrow(r)?, Builder::to_i32(b, pos)?)
        }
        _ => {
            let (d, r, b) = (
                builder.vars(&d, pos)?,
                builder.vars(&r, pos)?,
                builder.var(&b, pos)?,
            );
            Cumulative::with_variables(&starts, &d, &r, b)
        }
    };
    let cumulative = cumulative.map_err(|e| Builder::model_error(pos, e))?;
    builder.post(pos, cumulative)?;
    if fixed_tasks {
        builder.add_start_times(&starts);
    }
    Ok(())
}

/// `cspkit_disjunctive`: tasks that do not overlap (cspkit's library).
fn disjunctive<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let (s, d) = (call.arg(builder, 0)?, call.arg(builder, 1)?);
    let starts = builder.vars(&s, pos)?;
    let strict = matches!(call.arg(builder, 2)?, Val::Bool(true));
    let mut fixed_tasks = false;
    let disjunctive = match builder.ints(&d, pos) {
        Ok(d) => {
            let d: Vec<i32> = d
                .into_iter()
                .map(|v| Builder::to_i32(v, pos))
                .collect::<Result<_, _>>()?;
            fixed_tasks = true;
            Disjunctive::new(&starts, &d)
        }
        Err(_) => {
            let d = builder.vars(&d, pos)?;
            Disjunctive::with_variables(&starts, &d)
        }
    };
    let disjunctive = disjunctive.map_err(|e| Builder::model_error(pos, e))?;
    builder.post(
        pos,
        if strict {
            disjunctive.strict()
        } else {
            disjunctive
        },
    )?;
    if fixed_tasks {
        builder.add_start_times(&starts);
    }
    Ok(())
}

/// `fzn_among`: how many variables take a value of a set.
fn among<'a>(builder: &mut Builder<'a>, call: &Call<'a, '_>) -> Result<(), FznError> {
    let pos = call.pos;
    let n = call.arg(builder, 0)?;
    let n = builder.var(&n, pos)?;
    let xs = call.arg(builder, 1)?;
    let xs = builder.vars(&xs, pos)?;
    let values = Builder::set(&call.arg(builder, 2)?, pos)?;
    builder.post(pos, Among::new(&xs, &values, n))
}

#[cfg(test)]
mod tests {
    use super::{BUILTINS, SUPPORTED};
    use crate::flatzinc::{build, parse};

    /// The error of building a model whose one constraint is `name` called with the one
    /// argument `true` (read as the boolean of a `_reif` or `_imp` form, too few for any).
    fn error_of(name: &str) -> String {
        let text = format!("constraint {name}(true);\nsolve satisfy;\n");
        let items = parse(&text).expect("a call parses");
        build(&items)
            .expect_err("no builtin takes one argument")
            .message
    }

    #[test]
    fn the_supported_list_is_the_table_in_its_order_each_name_once() {
        let names: Vec<&str> = BUILTINS.iter().map(|&(name, _)| name).collect();
        assert_eq!(SUPPORTED, names.as_slice());
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "a builtin listed twice");
    }

    #[test]
    fn every_supported_name_reaches_its_function_and_no_other_name_does() {
        for name in SUPPORTED {
            let error = error_of(name);
            assert!(!error.contains("unsupported constraint"), "{name}: {error}");
        }
        for name in ["int_lin_lt", "int_plus_reif", "float_eq", "bool_clause_imp"] {
            assert!(error_of(name).contains("unsupported constraint"), "{name}");
        }
    }
}
