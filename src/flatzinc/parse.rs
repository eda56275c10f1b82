//! The FlatZinc reader: text to [`Item`]s, with the line and column of every error.
//!
//! FlatZinc (the MiniZinc compiler's output) is a flat list of items, each ended by `;`:
//! predicate declarations (skipped), parameters, variables, constraints and one solve item.
//! The reader is a hand-written lexer and recursive-descent parser over that grammar: no
//! dependency, every error names where it is, and no input makes it panic (nesting is bounded).
//!
//! Memory: the lexer hands the parser one token at a time (a model's data can be a hundred
//! megabytes of numbers), and an array of integer literals is kept as one `Vec<i32>`
//! ([`Expr::IntArray`]), 4 bytes an element, sized from the declaration's length: reading a
//! model takes at most twice its text's size again (each element takes two characters at
//! least, a digit and a comma).

use std::fmt;

/// A position in the text: line and column, from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// The line, from 1.
    pub line: usize,
    /// The column (in characters), from 1.
    pub column: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// An error reading or building a FlatZinc model: what, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {message}")]
pub struct FznError {
    /// Where the problem is.
    pub pos: Pos,
    /// What it is.
    pub message: String,
    /// Whether the model is valid FlatZinc that cspkit does not support (floats, set
    /// variables, an unknown constraint), as opposed to malformed text.
    pub unsupported: bool,
    /// Whether the item is well formed but can never hold (a domain it would empty, an index
    /// with no valid value): the builder turns such an item into a constraint that fails, so
    /// the model is answered unsatisfiable, not refused.
    pub infeasible: bool,
}

impl FznError {
    pub(crate) fn at(pos: Pos, message: impl Into<String>) -> FznError {
        FznError {
            pos,
            message: message.into(),
            unsupported: false,
            infeasible: false,
        }
    }

    pub(crate) fn unsupported(pos: Pos, message: impl Into<String>) -> FznError {
        FznError {
            pos,
            message: message.into(),
            unsupported: true,
            infeasible: false,
        }
    }
}

/// An expression: a literal, a name, an array, a set, an annotation.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An integer.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A floating-point number (unsupported beyond annotations).
    Float(f64),
    /// A string (in annotations).
    Str(String),
    /// A name: a parameter, a variable, an array, or an annotation without arguments.
    Ident(String),
    /// `name[index]`.
    Access(String, i64),
    /// `[a, b, …]`.
    Array(Vec<(Expr, Pos)>),
    /// `[1, -2, …]`: an array of integer literals only, each within 32 bits (at least one),
    /// stored compactly: a model's data can hold millions of them.
    IntArray(Vec<i32>),
    /// `low..high`.
    Range(i64, i64),
    /// `{a, b, …}`.
    Set(Vec<i64>),
    /// `name(args)`: an annotation with arguments.
    Call(String, Vec<(Expr, Pos)>),
}

/// The type of a declaration.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    /// `int`.
    Int,
    /// `low..high` of integers.
    IntRange(i64, i64),
    /// `{a, b, …}` of integers.
    IntSet(Vec<i64>),
    /// `bool`.
    Bool,
    /// `float` or a float range.
    Float,
    /// `set of …`.
    SetOfInt,
}

/// One item of a model.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A parameter or a variable (`var` set), possibly an array of `len` of them.
    Decl {
        /// Whether it is a variable.
        var: bool,
        /// The array's length, for an array.
        array: Option<usize>,
        /// The element type.
        ty: Type,
        /// The name.
        name: String,
        /// The annotations (`output_var`, `output_array([1..2, 1..3])`, …).
        annotations: Vec<(Expr, Pos)>,
        /// The value after `=`, if any.
        value: Option<(Expr, Pos)>,
        /// Where the declaration starts.
        pos: Pos,
    },
    /// `constraint name(args) :: annotations;`
    Constraint {
        /// The constraint's name.
        name: String,
        /// Its arguments.
        args: Vec<(Expr, Pos)>,
        /// Its annotations (`defines_var(x)`, MiniZinc's `mzn_path("…")`).
        annotations: Vec<(Expr, Pos)>,
        /// Where it starts.
        pos: Pos,
    },
    /// `solve :: annotations goal;`
    Solve {
        /// `None` to satisfy; `Some((expr, true))` to minimise, `false` to maximise.
        goal: Option<((Expr, Pos), bool)>,
        /// The search annotations.
        annotations: Vec<(Expr, Pos)>,
        /// Where it starts.
        pos: Pos,
    },
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Int(i64),
    Float(f64),
    Str(String),
    /// One of `; : , [ ] ( ) { } =`, or `::` as ':' doubled, `..` as '.'.
    Punct(char),
    DoubleColon,
    DotDot,
    End,
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Ident(name) => write!(f, "`{name}`"),
            Token::Int(v) => write!(f, "{v}"),
            Token::Float(v) => write!(f, "{v}"),
            Token::Str(s) => write!(f, "{s:?}"),
            Token::Punct(c) => write!(f, "`{c}`"),
            Token::DoubleColon => f.write_str("`::`"),
            Token::DotDot => f.write_str("`..`"),
            Token::End => f.write_str("the end of the file"),
        }
    }
}

/// The deepest nesting of arrays and annotations read (a guard against hostile input).
const MAX_DEPTH: usize = 64;

/// The tokens of a text, one at a time, with the line and column of each.
struct Lexer<'t> {
    text: &'t str,
    /// The byte offset of the next character.
    at: usize,
    line: usize,
    column: usize,
}

impl<'t> Lexer<'t> {
    fn new(text: &'t str) -> Self {
        Lexer {
            text,
            at: 0,
            line: 1,
            column: 1,
        }
    }

    fn byte(&self, offset: usize) -> Option<u8> {
        self.text.as_bytes().get(self.at + offset).copied()
    }

    /// Moves past one byte, counting lines and columns (in characters: the continuation bytes
    /// of a character do not count).
    fn advance(&mut self) {
        let b = self.text.as_bytes()[self.at];
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if b & 0xC0 != 0x80 {
            self.column += 1;
        }
        self.at += 1;
    }

    fn advance_while(&mut self, keep: impl Fn(u8) -> bool) {
        while self.byte(0).is_some_and(&keep) {
            self.advance();
        }
    }

    /// The next token and where it starts: [`Token::End`] at the end of the text.
    fn next_token(&mut self) -> Result<(Token, Pos), FznError> {
        loop {
            let pos = Pos {
                line: self.line,
                column: self.column,
            };
            let Some(b) = self.byte(0) else {
                return Ok((Token::End, pos));
            };
            let token = match b {
                b'%' => {
                    self.advance_while(|b| b != b'\n');
                    continue;
                }
                _ if b.is_ascii_whitespace() => {
                    self.advance();
                    continue;
                }
                _ if b.is_ascii_alphabetic() || b == b'_' => {
                    let start = self.at;
                    self.advance_while(|b| b.is_ascii_alphanumeric() || b == b'_');
                    Token::Ident(self.text[start..self.at].to_owned())
                }
                _ if b.is_ascii_digit()
                    || (b == b'-' && self.byte(1).is_some_and(|b| b.is_ascii_digit())) =>
                {
                    self.number(pos)?
                }
                b'"' => self.string(pos)?,
                b':' if self.byte(1) == Some(b':') => {
                    self.advance();
                    self.advance();
                    Token::DoubleColon
                }
                b'.' if self.byte(1) == Some(b'.') => {
                    self.advance();
                    self.advance();
                    Token::DotDot
                }
                b';' | b':' | b',' | b'[' | b']' | b'(' | b')' | b'{' | b'}' | b'=' => {
                    self.advance();
                    Token::Punct(char::from(b))
                }
                _ => {
                    let c = self.text[self.at..].chars().next().unwrap_or('?');
                    if c.is_whitespace() {
                        for _ in 0..c.len_utf8() {
                            self.advance();
                        }
                        continue;
                    }
                    return Err(FznError::at(pos, format!("unexpected character {c:?}")));
                }
            };
            return Ok((token, pos));
        }
    }

    /// An integer or a float, from its first character (a digit or `-`).
    fn number(&mut self, pos: Pos) -> Result<Token, FznError> {
        let start = self.at;
        self.advance();
        self.advance_while(|b| b.is_ascii_alphanumeric());
        // A fraction (not a `..` range) or an exponent makes a float.
        let mut float = false;
        if self.byte(0) == Some(b'.') && self.byte(1).is_some_and(|b| b.is_ascii_digit()) {
            float = true;
            self.advance();
            while let Some(b) = self.byte(0) {
                let previous = self.text.as_bytes()[self.at - 1];
                if b.is_ascii_alphanumeric()
                    || ((b == b'-' || b == b'+') && matches!(previous, b'e' | b'E'))
                {
                    self.advance();
                } else {
                    break;
                }
            }
        }
        let text = &self.text[start..self.at];
        if float || (text.contains(['e', 'E']) && !text.contains(['x', 'o'])) {
            text.parse::<f64>()
                .map(Token::Float)
                .map_err(|_| FznError::at(pos, format!("malformed number `{text}`")))
        } else {
            parse_int(text).map(Token::Int).ok_or_else(|| {
                FznError::at(pos, format!("malformed or too large integer `{text}`"))
            })
        }
    }

    /// A string, from its opening `"`.
    fn string(&mut self, pos: Pos) -> Result<Token, FznError> {
        self.advance();
        // Bytes, split only at ASCII characters: always whole characters.
        let mut bytes = Vec::new();
        loop {
            match self.byte(0) {
                None => return Err(FznError::at(pos, "a string is not closed")),
                Some(b'"') => {
                    self.advance();
                    break;
                }
                Some(b'\\') => {
                    self.advance();
                    if let Some(e) = self.byte(0) {
                        bytes.push(match e {
                            b'n' => b'\n',
                            b't' => b'\t',
                            other => other,
                        });
                        self.advance();
                    }
                }
                Some(other) => {
                    bytes.push(other);
                    self.advance();
                }
            }
        }
        Ok(Token::Str(String::from_utf8_lossy(&bytes).into_owned()))
    }
}

/// A decimal, hexadecimal (`0x`) or octal (`0o`) integer, with an optional `-`.
fn parse_int(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = if let Some(hex) = digits.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok()?
    } else if let Some(octal) = digits.strip_prefix("0o") {
        i64::from_str_radix(octal, 8).ok()?
    } else {
        digits.parse::<i64>().ok()?
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// The parser: recursive descent with one token of lookahead, read from the lexer as it goes.
struct Parser<'t> {
    lexer: Lexer<'t>,
    /// The next token.
    current: (Token, Pos),
    /// The lexer's error, if it met one: the text ends there for the parser, and the error is
    /// the one reported.
    lex_error: Option<FznError>,
    depth: usize,
    /// The length of the array a declaration announces, for the next array literal read.
    array_length: usize,
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        &self.current.0
    }

    fn pos(&self) -> Pos {
        self.current.1
    }

    /// The next token, and the one after it read.
    fn next(&mut self) -> (Token, Pos) {
        if self.current.0 == Token::End {
            return self.current.clone();
        }
        let following = match self.lexer.next_token() {
            Ok(token) => token,
            Err(error) => {
                let end = (Token::End, error.pos);
                self.lex_error = Some(error);
                end
            }
        };
        std::mem::replace(&mut self.current, following)
    }

    fn expect(&mut self, c: char) -> Result<Pos, FznError> {
        let (token, pos) = self.next();
        if token == Token::Punct(c) {
            Ok(pos)
        } else {
            Err(FznError::at(pos, format!("expected `{c}`, found {token}")))
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if *self.peek() == Token::Punct(c) {
            self.next();
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Result<(String, Pos), FznError> {
        match self.next() {
            (Token::Ident(name), pos) => Ok((name, pos)),
            (other, pos) => Err(FznError::at(pos, format!("expected a name, found {other}"))),
        }
    }

    fn keyword(&mut self, word: &str) -> Result<(), FznError> {
        let (name, pos) = self.ident()?;
        if name == word {
            Ok(())
        } else {
            Err(FznError::at(
                pos,
                format!("expected `{word}`, found `{name}`"),
            ))
        }
    }

    fn int(&mut self) -> Result<i64, FznError> {
        match self.next() {
            (Token::Int(v), _) => Ok(v),
            (other, pos) => Err(FznError::at(
                pos,
                format!("expected an integer, found {other}"),
            )),
        }
    }

    fn items(&mut self) -> Result<Vec<Item>, FznError> {
        let mut items = Vec::new();
        loop {
            let pos = self.pos();
            match self.peek().clone() {
                Token::End => return Ok(items),
                Token::Ident(word) => match word.as_str() {
                    "predicate" => self.skip_item()?,
                    "constraint" => items.push(self.constraint()?),
                    "solve" => items.push(self.solve()?),
                    _ => items.push(self.declaration()?),
                },
                other => {
                    return Err(FznError::at(
                        pos,
                        format!("expected an item, found {other}"),
                    ));
                }
            }
        }
    }

    /// Skips to the `;` that ends the item.
    fn skip_item(&mut self) -> Result<(), FznError> {
        let start = self.pos();
        loop {
            match self.next() {
                (Token::Punct(';'), _) => return Ok(()),
                (Token::End, _) => {
                    return Err(FznError::at(start, "this item is not ended by `;`"));
                }
                _ => {}
            }
        }
    }

    fn ty(&mut self) -> Result<Type, FznError> {
        let pos = self.pos();
        match self.next() {
            (Token::Ident(word), _) => match word.as_str() {
                "int" => Ok(Type::Int),
                "bool" => Ok(Type::Bool),
                "float" => Ok(Type::Float),
                "set" => {
                    self.keyword("of")?;
                    self.ty()?;
                    Ok(Type::SetOfInt)
                }
                other => Err(FznError::at(pos, format!("unknown type `{other}`"))),
            },
            (Token::Int(low), _) => {
                self.dotdot()?;
                let high = self.int()?;
                Ok(Type::IntRange(low, high))
            }
            (Token::Float(_), _) => {
                self.dotdot()?;
                self.next();
                Ok(Type::Float)
            }
            (Token::Punct('{'), _) => Ok(Type::IntSet(self.int_set()?)),
            (other, _) => Err(FznError::at(pos, format!("expected a type, found {other}"))),
        }
    }

    /// The integers of a set literal, after its `{`, up to its `}` (consumed).
    fn int_set(&mut self) -> Result<Vec<i64>, FznError> {
        let mut values = Vec::new();
        if !self.eat('}') {
            loop {
                values.push(self.int()?);
                if self.eat('}') {
                    return Ok(values);
                }
                self.expect(',')?;
            }
        }
        Ok(values)
    }

    fn dotdot(&mut self) -> Result<(), FznError> {
        match self.next() {
            (Token::DotDot, _) => Ok(()),
            (other, pos) => Err(FznError::at(pos, format!("expected `..`, found {other}"))),
        }
    }

    fn declaration(&mut self) -> Result<Item, FznError> {
        let pos = self.pos();
        let mut array = None;
        if *self.peek() == Token::Ident("array".into()) {
            self.next();
            self.expect('[')?;
            let low_pos = self.pos();
            let low = self.int()?;
            self.dotdot()?;
            let high = self.int()?;
            self.expect(']')?;
            if low != 1 || high < 0 {
                return Err(FznError::at(
                    low_pos,
                    format!("array index set {low}..{high}: FlatZinc arrays are indexed 1..n"),
                ));
            }
            array =
                Some(usize::try_from(high).map_err(|_| FznError::at(low_pos, "array too long"))?);
            self.keyword("of")?;
        }
        let var = if *self.peek() == Token::Ident("var".into()) {
            self.next();
            true
        } else {
            false
        };
        let ty = self.ty()?;
        self.expect(':')?;
        let (name, _) = self.ident()?;
        let annotations = self.annotations()?;
        let value = if self.eat('=') {
            let at = self.pos();
            // Room for the announced elements, as many as the rest of the text can hold.
            let rest = self.lexer.text.len() - self.lexer.at;
            self.array_length = array.unwrap_or(0).min(rest / 2 + 1);
            let value = self.expr();
            self.array_length = 0;
            Some((value?, at))
        } else {
            None
        };
        self.expect(';')?;
        Ok(Item::Decl {
            var,
            array,
            ty,
            name,
            annotations,
            value,
            pos,
        })
    }

    fn constraint(&mut self) -> Result<Item, FznError> {
        let pos = self.pos();
        self.keyword("constraint")?;
        let (name, _) = self.ident()?;
        self.expect('(')?;
        let args = self.list(')')?;
        let annotations = self.annotations()?;
        self.expect(';')?;
        Ok(Item::Constraint {
            name,
            args,
            annotations,
            pos,
        })
    }

    fn solve(&mut self) -> Result<Item, FznError> {
        let pos = self.pos();
        self.keyword("solve")?;
        let annotations = self.annotations()?;
        let (word, word_pos) = self.ident()?;
        let goal = match word.as_str() {
            "satisfy" => None,
            "minimize" | "maximize" => {
                let at = self.pos();
                Some(((self.expr()?, at), word == "minimize"))
            }
            other => {
                return Err(FznError::at(
                    word_pos,
                    format!("expected satisfy, minimize or maximize, found `{other}`"),
                ));
            }
        };
        self.expect(';')?;
        Ok(Item::Solve {
            goal,
            annotations,
            pos,
        })
    }

    fn annotations(&mut self) -> Result<Vec<(Expr, Pos)>, FznError> {
        let mut annotations = Vec::new();
        while *self.peek() == Token::DoubleColon {
            self.next();
            let at = self.pos();
            annotations.push((self.expr()?, at));
        }
        Ok(annotations)
    }

    /// Expressions separated by `,` up to `close` (consumed); a trailing comma is allowed.
    fn list(&mut self, close: char) -> Result<Vec<(Expr, Pos)>, FznError> {
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(items);
            }
            let at = self.pos();
            items.push((self.expr()?, at));
            if self.eat(close) {
                return Ok(items);
            }
            self.expect(',')?;
        }
    }

    /// An array literal after its `[`, up to its `]` (consumed): [`Expr::IntArray`] while
    /// every element is an integer, [`Expr::Array`] from the first that is not.
    fn array(&mut self, pos: Pos) -> Result<Expr, FznError> {
        let mut ints: Vec<i32> = Vec::with_capacity(std::mem::take(&mut self.array_length));
        loop {
            if self.eat(']') {
                break;
            }
            let Some(v) = self.int32() else {
                // Not an integer: the general form (the integers read take the array's place).
                let mut items: Vec<(Expr, Pos)> = ints
                    .into_iter()
                    .map(|v| (Expr::Int(v.into()), pos))
                    .collect();
                loop {
                    let at = self.pos();
                    items.push((self.expr()?, at));
                    if self.eat(']') {
                        return Ok(Expr::Array(items));
                    }
                    self.expect(',')?;
                    if self.eat(']') {
                        return Ok(Expr::Array(items));
                    }
                }
            };
            let at = self.pos();
            self.next();
            if *self.peek() == Token::DotDot {
                // A range is an element of its own: back to the general form.
                self.next();
                let high = self.int()?;
                let mut items: Vec<(Expr, Pos)> = ints
                    .into_iter()
                    .map(|v| (Expr::Int(v.into()), pos))
                    .collect();
                items.push((Expr::Range(v.into(), high), at));
                if !self.eat(']') {
                    self.expect(',')?;
                    items.extend(self.list(']')?);
                }
                return Ok(Expr::Array(items));
            }
            ints.push(v);
            if self.eat(']') {
                break;
            }
            self.expect(',')?;
        }
        if ints.is_empty() {
            return Ok(Expr::Array(Vec::new()));
        }
        ints.shrink_to_fit();
        Ok(Expr::IntArray(ints))
    }

    /// The next token, if it is an integer within 32 bits.
    fn int32(&self) -> Option<i32> {
        match *self.peek() {
            Token::Int(v) => i32::try_from(v).ok(),
            _ => None,
        }
    }

    fn expr(&mut self) -> Result<Expr, FznError> {
        let pos = self.pos();
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(FznError::at(pos, "expressions nested too deeply"));
        }
        let expr = self.expr_inner(pos);
        self.depth -= 1;
        expr
    }

    fn expr_inner(&mut self, pos: Pos) -> Result<Expr, FznError> {
        match self.next() {
            (Token::Int(low), _) => {
                if *self.peek() == Token::DotDot {
                    self.next();
                    let high = self.int()?;
                    Ok(Expr::Range(low, high))
                } else {
                    Ok(Expr::Int(low))
                }
            }
            (Token::Float(v), _) => {
                if *self.peek() == Token::DotDot {
                    self.next();
                    self.next();
                }
                Ok(Expr::Float(v))
            }
            (Token::Str(s), _) => Ok(Expr::Str(s)),
            (Token::Ident(name), _) => match name.as_str() {
                "true" => Ok(Expr::Bool(true)),
                "false" => Ok(Expr::Bool(false)),
                _ if self.eat('(') => Ok(Expr::Call(name, self.list(')')?)),
                _ if self.eat('[') => {
                    let index = self.int()?;
                    self.expect(']')?;
                    Ok(Expr::Access(name, index))
                }
                _ => Ok(Expr::Ident(name)),
            },
            (Token::Punct('['), _) => self.array(pos),
            (Token::Punct('{'), _) => Ok(Expr::Set(self.int_set()?)),
            (other, _) => Err(FznError::at(
                pos,
                format!("expected an expression, found {other}"),
            )),
        }
    }
}

/// Reads a FlatZinc model into its items, for [`build`](crate::flatzinc::build) (the items are
/// cspkit's own syntax tree, not a public type).
///
/// # Errors
///
/// A [`FznError`] naming the line and column of the first thing that is not FlatZinc.
pub fn parse(text: &str) -> Result<Vec<Item>, FznError> {
    let mut lexer = Lexer::new(text);
    let current = lexer.next_token()?;
    let mut parser = Parser {
        lexer,
        current,
        lex_error: None,
        depth: 0,
        array_length: 0,
    };
    let items = parser.items();
    match parser.lex_error {
        Some(error) => Err(error),
        None => items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_model_is_read_item_by_item() {
        let text = "% a comment\n\
            predicate my_pred(var int: x);\n\
            int: n = 3;\n\
            array [1..2] of int: c = [1, -2];\n\
            var 1..3: x :: output_var;\n\
            var {1, 3}: y;\n\
            array [1..2] of var int: xs :: output_array([1..2]) = [x, y];\n\
            constraint int_lin_le(c, xs, 4) :: domain;\n\
            solve :: int_search(xs, first_fail, indomain_min, complete) minimize x;\n";
        let items = parse(text).unwrap();
        assert_eq!(items.len(), 7);
        assert!(
            matches!(&items[0], Item::Decl { var: false, name, value: Some((Expr::Int(3), _)), .. } if name == "n")
        );
        assert!(matches!(
            &items[2],
            Item::Decl {
                var: true,
                ty: Type::IntRange(1, 3),
                ..
            }
        ));
        assert!(matches!(&items[3], Item::Decl { ty: Type::IntSet(v), .. } if v == &[1, 3]));
        match &items[5] {
            Item::Constraint {
                name, args, pos, ..
            } => {
                assert_eq!(name, "int_lin_le");
                assert_eq!(args.len(), 3);
                assert_eq!(pos.line, 8);
            }
            other => panic!("{other:?}"),
        }
        assert!(
            matches!(&items[6], Item::Solve { goal: Some((_, true)), annotations, .. } if annotations.len() == 1)
        );
    }

    #[test]
    fn arrays_of_integers_are_kept_compact_and_others_element_by_element() {
        let value = |text: &str| match parse(text).unwrap().remove(0) {
            Item::Decl {
                value: Some((expr, _)),
                ..
            } => expr,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            value("array [1..3] of int: a = [1, -2, 3,];"),
            Expr::IntArray(vec![1, -2, 3])
        );
        assert_eq!(
            value("array [1..0] of int: a = [];"),
            Expr::Array(Vec::new())
        );
        let mixed = |expr: Expr| match expr {
            Expr::Array(items) => items.into_iter().map(|(e, _)| e).collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            mixed(value("array [1..3] of var int: a = [1, x, 3];")),
            [Expr::Int(1), Expr::Ident("x".into()), Expr::Int(3)]
        );
        assert_eq!(
            mixed(value("array [1..2] of set of int: a = [1, 2..3];")),
            [Expr::Int(1), Expr::Range(2, 3)]
        );
        // Beyond 32 bits: the general form, so that the builder can name the value.
        assert_eq!(
            mixed(value("array [1..2] of int: a = [1, 4294967296];")),
            [Expr::Int(1), Expr::Int(4294967296)]
        );
        // A length the text cannot hold reserves no more than the text.
        assert_eq!(
            value("array [1..1000000000000] of int: a = [7];"),
            Expr::IntArray(vec![7])
        );
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let err = parse("% é, ü\nvar 1..3: x; constraint p(\"ñ\") @").unwrap_err();
        assert_eq!((err.pos.line, err.pos.column), (2, 32), "{err}");
        let err = parse("var 1..3: x;\u{a0}@").unwrap_err();
        assert_eq!((err.pos.line, err.pos.column), (1, 14), "{err}");
    }

    #[test]
    fn errors_name_the_line_and_column() {
        let err = parse("var 1..3: x;\nconstraint int_le(x, 3;\n").unwrap_err();
        assert_eq!((err.pos.line, err.pos.column), (2, 23));
        assert!(err.message.contains("expected `,`"), "{err}");
        let err = parse("var 1..3: x\nsolve satisfy;").unwrap_err();
        assert_eq!(err.pos.line, 2, "{err}");
        let err = parse("int: n = 99999999999999999999;").unwrap_err();
        assert!(err.message.contains("too large"), "{err}");
        let deep = format!("constraint p({}1{});", "[".repeat(500), "]".repeat(500));
        assert!(parse(&deep).unwrap_err().message.contains("nested"));
        assert!(
            parse("constraint p(\"open")
                .unwrap_err()
                .message
                .contains("not closed")
        );
        assert!(
            parse("var 1..3: x; @")
                .unwrap_err()
                .message
                .contains("unexpected character")
        );
    }
}
