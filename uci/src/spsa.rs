//! OpenBench's SPSA input format, one parameter a line: `name, int, value, min, max, c_end,
//! r_end` (`float` for a real-valued parameter). The engine's `spsa` command writes its
//! parameters so (in a `tune` build), and `tempo-tools spsa` reads them back.

use std::fmt;
use std::str::FromStr;

/// Whether a parameter takes integers or reals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpsaKind {
    /// `int`: the engine gets whole numbers (OpenBench rounds each perturbation at random).
    Int,
    /// `float`.
    Float,
}

/// One line of SPSA input.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// The UCI option that sets it.
    pub name: String,
    /// Integer or real.
    pub kind: SpsaKind,
    /// The value (the start of a tuning run, or its current value).
    pub value: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// The perturbation at the end of the run.
    pub c_end: f64,
    /// The learning rate at the end of the run.
    pub r_end: f64,
}

/// Why a line is not SPSA input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpsaError {
    /// Not seven comma-separated fields.
    #[error("expected 7 comma-separated fields (name, int|float, value, min, max, c_end, r_end), found {0}")]
    FieldCount(usize),
    /// The name is empty or contains whitespace (it is a UCI option name, sent whole).
    #[error("parameter name {0:?} is empty or contains whitespace")]
    Name(String),
    /// The type is neither `int` nor `float`.
    #[error("parameter type {0:?} is neither int nor float")]
    Kind(String),
    /// A number field does not read as a finite number.
    #[error("{field} {text:?} is not a finite number")]
    Number {
        /// Which field.
        field: &'static str,
        /// Its text.
        text: String,
    },
    /// The numbers do not fit together: `min <= value <= max`, `c_end > 0`, `r_end > 0`.
    #[error("{0}")]
    Inconsistent(String),
    /// A line of a multi-line input is wrong.
    #[error("line {line}: {error}")]
    Line {
        /// Its number, from 1.
        line: usize,
        /// What is wrong with it.
        error: Box<SpsaError>,
    },
}

impl fmt::Display for SpsaKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpsaKind::Int => "int",
            SpsaKind::Float => "float",
        })
    }
}

impl SpsaParam {
    /// The value the engine is given: rounded to an integer for an `int` parameter.
    pub fn engine_value(&self, value: f64) -> String {
        match self.kind {
            SpsaKind::Int => format!("{}", value.round() as i64),
            SpsaKind::Float => format!("{value}"),
        }
    }
}

impl fmt::Display for SpsaParam {
    /// The line, with integers written without a fraction.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let number = |v: f64| match self.kind {
            SpsaKind::Int if v.fract() == 0.0 => format!("{}", v as i64),
            _ => format!("{v}"),
        };
        write!(
            f,
            "{}, {}, {}, {}, {}, {}, {}",
            self.name,
            self.kind,
            number(self.value),
            number(self.min),
            number(self.max),
            self.c_end,
            self.r_end
        )
    }
}

impl FromStr for SpsaParam {
    type Err = SpsaError;

    /// Reads one line (surrounding whitespace and spaces around the commas are ignored).
    fn from_str(line: &str) -> Result<SpsaParam, SpsaError> {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [name, kind, value, min, max, c_end, r_end] = fields[..] else {
            return Err(SpsaError::FieldCount(fields.len()));
        };
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(SpsaError::Name(name.to_owned()));
        }
        let kind = match kind {
            "int" => SpsaKind::Int,
            "float" => SpsaKind::Float,
            other => return Err(SpsaError::Kind(other.to_owned())),
        };
        let number = |field: &'static str, text: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| SpsaError::Number { field, text: text.to_owned() })
        };
        let param = SpsaParam {
            name: name.to_owned(),
            kind,
            value: number("value", value)?,
            min: number("min", min)?,
            max: number("max", max)?,
            c_end: number("c_end", c_end)?,
            r_end: number("r_end", r_end)?,
        };
        if !(param.min <= param.value && param.value <= param.max) {
            return Err(SpsaError::Inconsistent(format!(
                "{}: value {} is outside {}..={}",
                param.name, param.value, param.min, param.max
            )));
        }
        if param.c_end <= 0.0 || param.r_end <= 0.0 {
            return Err(SpsaError::Inconsistent(format!("{}: c_end and r_end must be positive", param.name)));
        }
        Ok(param)
    }
}

/// Reads SPSA input: one parameter a line; blank lines and lines starting with `#` are
/// skipped.
///
/// # Errors
/// [`SpsaError::Line`] for the first line that is not SPSA input, or
/// [`SpsaError::Inconsistent`] for a name given twice.
pub fn parse_spsa_input(text: &str) -> Result<Vec<SpsaParam>, SpsaError> {
    let mut params: Vec<SpsaParam> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let param: SpsaParam = line.parse().map_err(|e| SpsaError::Line { line: i + 1, error: Box::new(e) })?;
        if params.iter().any(|p| p.name == param.name) {
            return Err(SpsaError::Inconsistent(format!("line {}: parameter {} given twice", i + 1, param.name)));
        }
        params.push(param);
    }
    Ok(params)
}

/// The SPSA input of the engine's parameters at their current values (one line each), as
/// the `spsa` command prints it.
pub fn engine_spsa_input() -> Vec<SpsaParam> {
    tempo_engine::PARAMETERS
        .iter()
        .map(|p| SpsaParam {
            name: p.name.to_owned(),
            kind: SpsaKind::Int,
            value: f64::from(p.value()),
            min: f64::from(p.min),
            max: f64::from(p.max),
            c_end: p.c_end,
            r_end: tempo_engine::R_END,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_and_writes_openbench_lines() {
        let p: SpsaParam = "lmr_base, int, 75, 0, 200, 10, 0.002".parse().unwrap();
        assert_eq!(
            p,
            SpsaParam {
                name: "lmr_base".into(),
                kind: SpsaKind::Int,
                value: 75.0,
                min: 0.0,
                max: 200.0,
                c_end: 10.0,
                r_end: 0.002
            }
        );
        assert_eq!(p.to_string(), "lmr_base, int, 75, 0, 200, 10, 0.002");
        assert_eq!(p.engine_value(74.6), "75");
        let f: SpsaParam = "  Scale,float,1.5,0.5,2.5,0.1,0.002  ".parse().unwrap();
        assert_eq!(f.to_string(), "Scale, float, 1.5, 0.5, 2.5, 0.1, 0.002");
    }

    #[test]
    fn refuses_what_is_not_spsa_input() {
        for (line, want) in [
            ("a, int, 1, 0, 2, 1", "expected 7"),
            (" , int, 1, 0, 2, 1, 0.002", "empty"),
            ("a b, int, 1, 0, 2, 1, 0.002", "whitespace"),
            ("a, bool, 1, 0, 2, 1, 0.002", "neither int"),
            ("a, int, x, 0, 2, 1, 0.002", "value \"x\""),
            ("a, int, NaN, 0, 2, 1, 0.002", "not a finite"),
            ("a, int, 3, 0, 2, 1, 0.002", "outside"),
            ("a, int, 1, 0, 2, 0, 0.002", "positive"),
        ] {
            let e = line.parse::<SpsaParam>().unwrap_err().to_string();
            assert!(e.contains(want), "{line:?}: {e}");
        }
        let e = parse_spsa_input("# comment\n\na, int, 1, 0, 2, 1, 0.002\na, int, 1, 0, 2, 1, 0.002\n").unwrap_err();
        assert!(e.to_string().contains("line 4: parameter a given twice"), "{e}");
        let e = parse_spsa_input("a, int, 1, 0, 2, 1, 0.002\nb\n").unwrap_err();
        assert!(e.to_string().starts_with("line 2: expected 7"), "{e}");
    }

    #[test]
    fn the_engine_input_agrees_with_the_declarations() {
        let text: String = engine_spsa_input().iter().map(|p| format!("{p}\n")).collect();
        let params = parse_spsa_input(&text).unwrap();
        assert_eq!(params.len(), tempo_engine::PARAMETERS.len());
        for (p, d) in params.iter().zip(tempo_engine::PARAMETERS) {
            assert_eq!((p.name.as_str(), p.kind), (d.name, SpsaKind::Int));
            assert_eq!((p.min, p.max, p.c_end), (f64::from(d.min), f64::from(d.max), d.c_end));
        }
    }

    proptest! {
        #[test]
        fn reading_never_panics(text in "\\PC{0,80}") {
            let _ = parse_spsa_input(&text);
        }

        #[test]
        fn lines_round_trip(
            name in "[A-Za-z_][A-Za-z0-9_]{0,20}",
            min in -1000i32..1000,
            span in 1i32..1000,
            at in 0.0f64..1.0,
            c_end in 0.01f64..100.0,
            float: bool,
        ) {
            let max = min + span;
            let mut value = f64::from(min) + at * f64::from(span);
            if !float {
                value = value.round();
            }
            let kind = if float { SpsaKind::Float } else { SpsaKind::Int };
            let p = SpsaParam { name, kind, value, min: f64::from(min), max: f64::from(max), c_end, r_end: 0.002 };
            prop_assert_eq!(p.to_string().parse::<SpsaParam>(), Ok(p));
        }
    }
}
