//! Declarations: parameters, variables and arrays, with their domains and output annotations.

use super::Builder;
use super::values::Val;
use crate::error::{DomainError, ModelError};
use crate::flatzinc::parse::{Expr, FznError, Item, Pos, Type};
use crate::flatzinc::{OutputItem, OutputValue};
use crate::model::{LinearExpr, Model};

impl<'a> Builder<'a> {
    pub(super) fn declare(&mut self, item: &'a Item) -> Result<(), FznError> {
        let Item::Decl {
            var,
            array,
            ty,
            name,
            annotations,
            value,
            pos,
        } = item
        else {
            return Ok(());
        };
        let (var, array, pos, value) = (*var, *array, *pos, value.as_ref());
        if self.env.contains_key(name.as_str()) {
            return Err(FznError::at(pos, format!("`{name}` is declared twice")));
        }
        if matches!(ty, Type::Float) {
            return Err(FznError::unsupported(
                pos,
                format!("`{name}`: floats are not supported by cspkit"),
            ));
        }
        if var && matches!(ty, Type::SetOfInt) {
            return Err(FznError::unsupported(
                pos,
                format!("`{name}`: set variables are not supported by cspkit"),
            ));
        }
        let is_bool = matches!(ty, Type::Bool);
        let resolved = value.map(|(e, p)| self.resolve(e, *p)).transpose()?;
        let val = match (var, array) {
            (false, _) => {
                let value = resolved
                    .ok_or_else(|| FznError::at(pos, format!("parameter `{name}` has no value")))?;
                if let Some(len) = array
                    && let Ok(items) = Self::elements(&value, pos)
                    && items.len() != len
                {
                    return Err(FznError::at(
                        pos,
                        format!("`{name}`: {} elements for 1..{len}", items.len()),
                    ));
                }
                value
            }
            (true, Some(len)) => {
                let Some(items @ (Val::Array(_) | Val::Ints(_))) = resolved else {
                    return Err(FznError::at(
                        pos,
                        format!("array of variables `{name}` has no list of elements"),
                    ));
                };
                let found = Self::elements(&items, pos)?.len();
                if found != len {
                    return Err(FznError::at(
                        pos,
                        format!("`{name}`: {found} elements for 1..{len}"),
                    ));
                }
                items
            }
            (true, None) => {
                let domain: Vec<i32> = match ty {
                    Type::Bool => vec![0, 1],
                    Type::IntSet(values) => values
                        .iter()
                        .map(|&v| Self::to_i32(v, pos))
                        .collect::<Result<_, _>>()?,
                    _ => Vec::new(),
                };
                let new = match ty {
                    Type::Int => self.model.new_named_var(name, i32::MIN..=i32::MAX),
                    Type::IntRange(low, high) => {
                        // A bound beyond 32 bits is clamped, and the model marked so that no
                        // answer claims what the clamp could have made false.
                        if *high < i64::from(i32::MIN) || *low > i64::from(i32::MAX) {
                            Self::to_i32(*low, pos)?;
                            Self::to_i32(*high, pos)?;
                        }
                        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX));
                        let (low32, high32) = (clamp(*low) as i32, clamp(*high) as i32);
                        if (i64::from(low32), i64::from(high32)) != (*low, *high) && low <= high {
                            self.clamped.push(name.to_owned());
                            self.warnings.push(format!(
                                "line {}: the domain of `{name}`, {low}..{high}, is clamped to \
                                 cspkit's 32-bit integers: the answer will not claim that no \
                                 solution, or no better one, exists",
                                pos.line
                            ));
                        }
                        if low > high {
                            Err(ModelError::InvalidDomain {
                                variable: name.to_owned(),
                                source: DomainError::Empty,
                            })
                        } else {
                            self.model.new_named_var(name, low32..=high32)
                        }
                    }
                    _ => self.model.new_named_var(name, domain),
                };
                let new = match new {
                    Err(ModelError::InvalidDomain {
                        source: DomainError::Empty,
                        ..
                    }) => {
                        // No value at all: the model has no solution. The variable still
                        // stands (with a placeholder value) for the items that name it.
                        self.post_false(pos)?;
                        self.model.new_named_var(name, 0..=0)
                    }
                    other => other,
                };
                let new = new.map_err(|e| Self::model_error(pos, e))?;
                match resolved {
                    None => Val::Var(new, is_bool),
                    Some(other) => {
                        // `= value` or `= other_variable`: equal to it.
                        let target = self.var(&other, pos)?;
                        self.post_linear(pos, LinearExpr::from(new).eq(target), None)?;
                        Val::Var(new, is_bool)
                    }
                }
            }
        };
        let val = match val {
            // Constants of a bool array stay booleans; variables of a bool array are booleans.
            Val::Array(_) | Val::Ints(_) if is_bool && (var || matches!(val, Val::Array(_))) => {
                Val::Array(
                    Self::elements(&val, pos)?
                        .iter()
                        .map(|v| match v {
                            Val::Var(x, _) => Val::Var(x, true),
                            Val::Int(i) if var => Val::Bool(i != 0),
                            other => other,
                        })
                        .collect(),
                )
            }
            other => other,
        };
        for (annotation, at) in annotations {
            match annotation {
                Expr::Ident(a) if a == "output_var" => {
                    let value = Self::output_value(&val, *at)?;
                    self.output.push(OutputItem::Scalar {
                        name: name.to_owned(),
                        value,
                    });
                }
                Expr::Call(a, ranges) if a == "output_array" => {
                    let items = Self::elements(&val, *at)?;
                    let ranges = match ranges.first() {
                        Some((Expr::Array(list), _)) => list
                            .iter()
                            .map(|(e, p)| match e {
                                Expr::Range(l, h) => Ok((*l, *h)),
                                _ => Err(FznError::at(*p, "output_array: expected ranges")),
                            })
                            .collect::<Result<Vec<_>, _>>()?,
                        _ => {
                            return Err(FznError::at(
                                *at,
                                "output_array: expected a list of ranges",
                            ));
                        }
                    };
                    let shape: Option<i128> = ranges.iter().try_fold(1i128, |n, &(l, h)| {
                        let len = (i128::from(h) - i128::from(l) + 1).max(0);
                        n.checked_mul(len)
                    });
                    if shape != Some(items.len() as i128) {
                        return Err(FznError::at(
                            *at,
                            format!(
                                "output_array of `{name}`: its index sets hold {} elements, the \
                                 array {}",
                                shape.map_or_else(|| "too many".to_owned(), |n| n.to_string()),
                                items.len()
                            ),
                        ));
                    }
                    let values = items
                        .iter()
                        .map(|v| Self::output_value(&v, *at))
                        .collect::<Result<_, _>>()?;
                    self.output.push(OutputItem::Array {
                        name: name.to_owned(),
                        ranges,
                        values,
                    });
                }
                _ => {}
            }
        }
        self.env.insert(name.to_owned(), val);
        Ok(())
    }

    pub(super) fn output_value(value: &Val<'a>, pos: Pos) -> Result<OutputValue, FznError> {
        match value {
            Val::Var(var, is_bool) => Ok(OutputValue::Var(*var, *is_bool)),
            Val::Int(v) => Ok(OutputValue::Int(*v)),
            Val::Bool(b) => Ok(OutputValue::Bool(*b)),
            _ => Err(FznError::unsupported(
                pos,
                "only integer and boolean outputs are supported",
            )),
        }
    }
}

/// Names each variable of an output array that MiniZinc introduced (`X_INTRODUCED_17_`) after
/// the array and its indices, as the model writes it: `q[3]`, `x[2,5]`. A variable in two
/// arrays keeps the first name.
pub(super) fn name_output_elements(model: &mut Model, output: &[OutputItem]) {
    let mut named = std::collections::HashSet::new();
    for item in output {
        let OutputItem::Array {
            name,
            ranges,
            values,
        } = item
        else {
            continue;
        };
        for (position, value) in values.iter().enumerate() {
            let OutputValue::Var(var, _) = *value else {
                continue;
            };
            let current = model.var_name(var);
            let introduced = current.starts_with("X_INTRODUCED_");
            if !introduced || !named.insert(var) {
                continue;
            }
            // Row-major: the last index varies fastest.
            let mut rest = position as i64;
            let mut indices = vec![0i64; ranges.len()];
            for (slot, &(low, high)) in indices.iter_mut().zip(ranges).rev() {
                let len = (high - low + 1).max(1);
                *slot = low + rest % len;
                rest /= len;
            }
            let indices: Vec<String> = indices.iter().map(i64::to_string).collect();
            model.set_name(var, format!("{name}[{}]", indices.join(",")));
        }
    }
}
