//! Resolving FlatZinc expressions to values: constants, variables, arrays and sets, and the
//! conversions the builtins ask of them.

use std::rc::Rc;

use super::Builder;
use crate::flatzinc::parse::{Expr, FznError, Pos};
use crate::ids::VarId;
use crate::model::{BoolVar, LinearExpr};

/// The arguments of a call, as parsed.
pub(super) type Args<'a> = &'a [(Expr, Pos)];

/// A resolved value: a constant, a variable, or an array of them. Arrays are never copied:
/// an array of values is shared, an array of integer literals is the parsed text's.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Val<'a> {
    Int(i64),
    Bool(bool),
    /// A set of integers, ascending.
    Set(Vec<i64>),
    /// A variable, and whether it is boolean.
    Var(VarId, bool),
    Array(Rc<[Val<'a>]>),
    /// An array of integer constants, as parsed ([`Expr::IntArray`]).
    Ints(&'a [i32]),
}

/// The elements of an array value, however it is stored.
#[derive(Debug, Clone, Copy)]
pub(super) enum Elements<'v, 'a> {
    Vals(&'v [Val<'a>]),
    Ints(&'a [i32]),
}

impl<'v, 'a> Elements<'v, 'a> {
    pub(super) fn len(self) -> usize {
        match self {
            Elements::Vals(items) => items.len(),
            Elements::Ints(items) => items.len(),
        }
    }

    pub(super) fn get(self, i: usize) -> Option<Val<'a>> {
        match self {
            Elements::Vals(items) => items.get(i).cloned(),
            Elements::Ints(items) => items.get(i).map(|&v| Val::Int(v.into())),
        }
    }

    pub(super) fn iter(self) -> impl Iterator<Item = Val<'a>> + 'v
    where
        'a: 'v,
    {
        (0..self.len()).map(move |i| self.get(i).expect("an index below the length"))
    }
}

impl<'a> Builder<'a> {
    /// The value of an expression.
    pub(super) fn resolve(&self, expr: &'a Expr, pos: Pos) -> Result<Val<'a>, FznError> {
        Ok(match expr {
            Expr::Int(v) => Val::Int(*v),
            Expr::Bool(b) => Val::Bool(*b),
            Expr::Float(_) => {
                return Err(FznError::unsupported(
                    pos,
                    "floats are not supported by cspkit",
                ));
            }
            Expr::Str(_) | Expr::Call(..) => {
                return Err(FznError::at(pos, "an annotation where a value is expected"));
            }
            Expr::Ident(name) => self
                .env
                .get(name)
                .cloned()
                .ok_or_else(|| FznError::at(pos, format!("unknown name `{name}`")))?,
            Expr::Access(name, index) => {
                let array = self
                    .env
                    .get(name)
                    .ok_or_else(|| FznError::at(pos, format!("unknown array `{name}`")))?;
                let Ok(items) = Self::elements(array, pos) else {
                    return Err(FznError::at(pos, format!("`{name}` is not an array")));
                };
                usize::try_from(*index - 1)
                    .ok()
                    .and_then(|i| items.get(i))
                    .ok_or_else(|| {
                        FznError::at(
                            pos,
                            format!("index {index} is outside {name}'s 1..{}", items.len()),
                        )
                    })?
            }
            Expr::Array(items) => Val::Array(
                items
                    .iter()
                    .map(|(e, p)| self.resolve(e, *p))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::IntArray(values) => Val::Ints(values),
            Expr::Range(low, high) => {
                if high.saturating_sub(*low) > 1 << 20 {
                    return Err(FznError::unsupported(
                        pos,
                        "a constant set of more than 2^20 values",
                    ));
                }
                Val::Set((*low..=*high).collect())
            }
            Expr::Set(values) => {
                let mut values = values.clone();
                values.sort_unstable();
                values.dedup();
                Val::Set(values)
            }
        })
    }

    pub(super) fn arg(
        &self,
        args: Args<'a>,
        i: usize,
        name: &str,
        pos: Pos,
    ) -> Result<Val<'a>, FznError> {
        let (expr, at) = args.get(i).ok_or_else(|| {
            FznError::at(
                pos,
                format!(
                    "{name}: expected at least {} arguments, found {}",
                    i + 1,
                    args.len()
                ),
            )
        })?;
        self.resolve(expr, *at)
    }

    pub(super) fn int_const(&self, value: &Val, pos: Pos) -> Result<i64, FznError> {
        match value {
            Val::Int(v) => Ok(*v),
            Val::Bool(b) => Ok(i64::from(*b)),
            Val::Var(var, _) => self
                .model
                .domain(*var)
                .value()
                .map(i64::from)
                .ok_or_else(|| FznError::at(pos, "a variable where a constant is expected")),
            _ => Err(FznError::at(pos, "expected an integer")),
        }
    }

    pub(super) fn to_i32(value: i64, pos: Pos) -> Result<i32, FznError> {
        i32::try_from(value).map_err(|_| {
            FznError::unsupported(pos, format!("{value} is outside cspkit's 32-bit integers"))
        })
    }

    /// A variable for a value: itself, or a fixed variable for a constant.
    pub(super) fn var(&mut self, value: &Val, pos: Pos) -> Result<VarId, FznError> {
        match value {
            Val::Var(var, _) => Ok(*var),
            Val::Int(_) | Val::Bool(_) => {
                let v = self.int_const(value, pos)?;
                if let Some(&var) = self.constants.get(&v) {
                    return Ok(var);
                }
                let v32 = Self::to_i32(v, pos)?;
                // Named by its value: a trace then says `already has 3 (the constant 3)`.
                let var = self
                    .model
                    .new_named_var(format!("the constant {v32}"), v32..=v32)
                    .map_err(|e| Self::model_error(pos, e))?;
                self.constants.insert(v, var);
                Ok(var)
            }
            _ => Err(FznError::at(pos, "expected an integer or a variable")),
        }
    }

    pub(super) fn bool_var(&mut self, value: &Val, pos: Pos) -> Result<BoolVar, FznError> {
        let var = self.var(value, pos)?;
        self.model
            .as_bool(var)
            .map_err(|e| Self::model_error(pos, e))
    }

    pub(super) fn elements<'v>(value: &'v Val<'a>, pos: Pos) -> Result<Elements<'v, 'a>, FznError> {
        match value {
            Val::Array(items) => Ok(Elements::Vals(items)),
            Val::Ints(items) => Ok(Elements::Ints(items)),
            _ => Err(FznError::at(pos, "expected an array")),
        }
    }

    pub(super) fn vars(&mut self, value: &Val<'a>, pos: Pos) -> Result<Vec<VarId>, FznError> {
        // A handle on the array (shared, not copied), so that `self` can change.
        let value = value.clone();
        Self::elements(&value, pos)?
            .iter()
            .map(|v| self.var(&v, pos))
            .collect()
    }

    pub(super) fn bools(&mut self, value: &Val<'a>, pos: Pos) -> Result<Vec<BoolVar>, FznError> {
        let value = value.clone();
        Self::elements(&value, pos)?
            .iter()
            .map(|v| self.bool_var(&v, pos))
            .collect()
    }

    pub(super) fn ints(&self, value: &Val<'a>, pos: Pos) -> Result<Vec<i64>, FznError> {
        Self::elements(value, pos)?
            .iter()
            .map(|v| self.int_const(&v, pos))
            .collect()
    }

    /// The elements as 32-bit integers, after `room` free places at the front (filled with
    /// zeros): one vector of the array's length, however long.
    pub(super) fn ints32_after(
        &self,
        room: usize,
        value: &Val<'a>,
        pos: Pos,
    ) -> Result<Vec<i32>, FznError> {
        let elements = Self::elements(value, pos)?;
        let mut values = Vec::with_capacity(room + elements.len());
        values.resize(room, 0);
        for v in elements.iter() {
            values.push(Self::to_i32(self.int_const(&v, pos)?, pos)?);
        }
        Ok(values)
    }

    pub(super) fn ints32(&self, value: &Val<'a>, pos: Pos) -> Result<Vec<i32>, FznError> {
        self.ints32_after(0, value, pos)
    }

    pub(super) fn set(value: &Val, pos: Pos) -> Result<Vec<i32>, FznError> {
        match value {
            Val::Set(values) => values.iter().map(|&v| Self::to_i32(v, pos)).collect(),
            _ => Err(FznError::at(pos, "expected a set of integers")),
        }
    }

    /// A term of a linear expression: a constant or a variable.
    pub(super) fn expr_of(&mut self, value: &Val, pos: Pos) -> Result<LinearExpr, FznError> {
        match value {
            Val::Int(v) => Ok(LinearExpr::new(&[], *v)),
            Val::Bool(b) => Ok(LinearExpr::new(&[], i64::from(*b))),
            Val::Var(var, _) => Ok(LinearExpr::from(*var)),
            _ => Err(FznError::at(pos, "expected an integer or a variable")),
        }
    }
}
