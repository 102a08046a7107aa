//! Reading candidates back from their printed form (`--rank` options, JSON
//! certificates, tests): `21 - x`, `(2*x + 1)/3`, `max(21 - x, x + 1, -x)`,
//! `lex(x, y)`, `phases(y, x)`.
//!
//! Grammar (whitespace ignored):
//!
//! ```text
//! candidate := ("max" | "lex" | "phases") "(" expr ("," expr)* ")" | expr
//! expr      := term (("+" | "-") term)*
//! term      := unary (("*" | "/") unary)*          products need a constant side,
//! unary     := ("-" | "+") unary | atom             divisors must be non-zero constants
//! atom      := integer | variable | "(" expr ")"
//! ```
//!
//! Variables are C identifiers, also with `.`, `$`, `@` and `#` after the
//! first character (front ends qualify names). Division is exact (rational),
//! as in the pieces themselves, not C's truncating division.

use super::{AffinePiece, Combination, RankingCandidate};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(BigInt),
    Ident(String),
    Plus,
    Minus,
    Star,
    Slash,
    LParen,
    RParen,
    Comma,
    End,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    /// 1-based column (in characters) where the token starts.
    column: usize,
    text: String,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

fn is_ident_continue(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '@' | '#')
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let tok = if c.is_ascii_digit() {
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            let n: BigInt = digits.parse().map_err(|_| format!("bad integer `{digits}` at column {column}"))?;
            Tok::Num(n)
        } else if is_ident_start(c) {
            while i < chars.len() && is_ident_continue(chars[i]) {
                i += 1;
            }
            Tok::Ident(chars[start..i].iter().collect())
        } else {
            i += 1;
            match c {
                '+' => Tok::Plus,
                '-' => Tok::Minus,
                '*' => Tok::Star,
                '/' => Tok::Slash,
                '(' => Tok::LParen,
                ')' => Tok::RParen,
                ',' => Tok::Comma,
                _ => return Err(format!("unexpected character `{c}` at column {column}")),
            }
        };
        out.push(Token { tok, column, text: chars[start..i].iter().collect() });
    }
    out.push(Token { tok: Tok::End, column: chars.len() + 1, text: String::new() });
    Ok(out)
}

struct Parser {
    toks: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> &Token {
        // The token list always ends with End and `at` never passes it.
        &self.toks[self.at.min(self.toks.len() - 1)]
    }

    fn peek_second(&self) -> Option<&Token> {
        self.toks.get(self.at + 1)
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if t.tok != Tok::End {
            self.at += 1;
        }
        t
    }

    fn unexpected(t: &Token, expected: &str) -> String {
        match t.tok {
            Tok::End => format!("unexpected end of input: expected {expected}"),
            _ => format!("unexpected `{}` at column {}: expected {expected}", t.text, t.column),
        }
    }

    fn expect(&mut self, tok: Tok, what: &str) -> Result<(), String> {
        let t = self.bump();
        if t.tok == tok {
            Ok(())
        } else {
            Err(Self::unexpected(&t, what))
        }
    }

    fn expr(&mut self) -> Result<AffinePiece, String> {
        let mut acc = self.term()?;
        loop {
            match self.peek().tok {
                Tok::Plus => {
                    self.bump();
                    acc = acc.plus(&self.term()?);
                }
                Tok::Minus => {
                    self.bump();
                    acc = acc.plus(&self.term()?.times(&-BigRational::from_integer(1.into())));
                }
                _ => return Ok(acc),
            }
        }
    }

    fn term(&mut self) -> Result<AffinePiece, String> {
        let mut acc = self.unary()?;
        loop {
            let op = self.peek().clone();
            match op.tok {
                Tok::Star => {
                    self.bump();
                    let rhs = self.unary()?;
                    acc = if acc.is_constant() {
                        rhs.times(&acc.constant)
                    } else if rhs.is_constant() {
                        acc.times(&rhs.constant)
                    } else {
                        return Err(format!(
                            "non-linear product `({acc}) * ({rhs})` at column {}: ranking-function pieces are affine",
                            op.column
                        ));
                    };
                }
                Tok::Slash => {
                    self.bump();
                    let rhs = self.unary()?;
                    if !rhs.is_constant() {
                        return Err(format!(
                            "division by the non-constant `{rhs}` at column {}: only division by a constant is affine",
                            op.column
                        ));
                    }
                    if rhs.constant.is_zero() {
                        return Err(format!("division by zero at column {}", op.column));
                    }
                    acc = acc.times(&rhs.constant.recip());
                }
                _ => return Ok(acc),
            }
        }
    }

    fn unary(&mut self) -> Result<AffinePiece, String> {
        match self.peek().tok {
            Tok::Minus => {
                self.bump();
                Ok(self.unary()?.times(&-BigRational::from_integer(1.into())))
            }
            Tok::Plus => {
                self.bump();
                self.unary()
            }
            _ => self.atom(),
        }
    }

    fn atom(&mut self) -> Result<AffinePiece, String> {
        let t = self.bump();
        match &t.tok {
            Tok::Num(n) => Ok(AffinePiece::constant(BigRational::from_integer(n.clone()))),
            Tok::Ident(name) => {
                if self.peek().tok == Tok::LParen {
                    return Err(match Combination::from_function_name(name) {
                        Some(_) => format!(
                            "`{name}(...)` at column {} may only be the whole candidate, not part of an expression",
                            t.column
                        ),
                        None => unknown_function(name, t.column),
                    });
                }
                Ok(AffinePiece::variable(name.clone()))
            }
            Tok::LParen => {
                let e = self.expr()?;
                self.expect(Tok::RParen, "`)`")?;
                Ok(e)
            }
            _ => Err(Self::unexpected(&t, "an integer, a variable or `(`")),
        }
    }
}

fn unknown_function(name: &str, column: usize) -> String {
    format!(
        "unknown function `{name}` at column {column}: a candidate is an affine expression or max(...), lex(...) or phases(...)"
    )
}

/// Parse a candidate as printed by `RankingCandidate`'s `Display`: an affine
/// expression, or `max(...)`, `lex(...)`, `phases(...)` of affine
/// expressions (most significant first). Round trip `Display` → parse is the
/// identity.
pub fn parse_candidate(text: &str) -> Result<RankingCandidate, String> {
    let toks = tokenize(text)?;
    let mut p = Parser { toks, at: 0 };
    if p.peek().tok == Tok::End {
        return Err("empty ranking function".to_string());
    }
    let call = match (&p.peek().tok, p.peek_second().map(|t| &t.tok)) {
        (Tok::Ident(name), Some(Tok::LParen)) => Some((name.clone(), p.peek().column)),
        _ => None,
    };
    let candidate = match call {
        Some((name, column)) => {
            let combination = Combination::from_function_name(&name).ok_or_else(|| unknown_function(&name, column))?;
            p.bump();
            p.bump();
            if p.peek().tok == Tok::RParen {
                return Err(format!("`{name}()` at column {column} needs at least one piece"));
            }
            let mut pieces = vec![p.expr()?];
            loop {
                let t = p.bump();
                match t.tok {
                    Tok::Comma => pieces.push(p.expr()?),
                    Tok::RParen => break,
                    _ => return Err(Parser::unexpected(&t, "`,` or `)`")),
                }
            }
            RankingCandidate { combination, pieces }
        }
        None => RankingCandidate::single(p.expr()?),
    };
    let rest = p.bump();
    if rest.tok != Tok::End {
        return Err(Parser::unexpected(&rest, "end of input"));
    }
    Ok(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_affine_expressions() {
        let c = parse_candidate("2*(x - 3) + y/2 - (1 + x)").expect("affine");
        assert_eq!(c.to_string(), "(2*x + y - 14)/2");
        assert_eq!(parse_candidate("-x").expect("affine").to_string(), "-x");
        assert_eq!(parse_candidate("main.n - main.i").expect("affine").to_string(), "main.n - main.i");
    }

    #[test]
    fn clear_errors() {
        let e = parse_candidate("x * y").unwrap_err();
        assert!(e.contains("non-linear"), "{e}");
        let e = parse_candidate("min(x, y)").unwrap_err();
        assert!(e.contains("unknown function `min`"), "{e}");
        let e = parse_candidate("x + max(x, y)").unwrap_err();
        assert!(e.contains("whole candidate"), "{e}");
        let e = parse_candidate("x / 0").unwrap_err();
        assert!(e.contains("division by zero"), "{e}");
        let e = parse_candidate("x / y").unwrap_err();
        assert!(e.contains("non-constant"), "{e}");
        let e = parse_candidate("x % 2").unwrap_err();
        assert!(e.contains("unexpected character `%` at column 3"), "{e}");
        let e = parse_candidate("(x + 1").unwrap_err();
        assert!(e.contains("end of input"), "{e}");
        assert!(parse_candidate("").is_err());
        assert!(parse_candidate("max()").is_err());
        assert!(parse_candidate("max(x, y) + 1").is_err());
    }
}
