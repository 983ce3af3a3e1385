//! [`Score`]: an engine's evaluation as every layer reports it (the engine's search, UCI
//! `info` lines, PGN `[%eval]` comments, the terminal). It lives in `core`, the one crate all
//! of them see, so that they share one type and one conversion to centipawns.

use std::fmt;
use std::ops::Neg;
use std::str::FromStr;

use thiserror::Error;

/// An evaluation: centipawns, or a forced mate in a number of moves.
///
/// A score has a point of view that the value does not carry: engines report the side to
/// move's, PGN `[%eval]` comments White's. Negation (`-score`) changes sides.
///
/// The text form (`Display`/`FromStr`) is the one players read: pawns with a sign and two
/// decimals (`+0.35`, `-1.20`), `#3` for mate in 3, `#-2` when mated in 2.
///
/// ```
/// use tempo_core::Score;
///
/// assert_eq!(Score::Cp(35).to_string(), "+0.35");
/// assert_eq!("#-2".parse::<Score>()?, Score::Mate(-2));
/// assert_eq!(-Score::Mate(3), Score::Mate(-3));
/// assert!(Score::Mate(5).centipawns() > Score::Cp(5_000).centipawns());
/// # Ok::<(), tempo_core::ParseScoreError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (100 is a pawn).
    Cp(i32),
    /// Mate in this many moves (not plies); negative when the side this score belongs to is
    /// the one mated. `Mate(0)` is a side already mated.
    Mate(i32),
}

impl Score {
    /// The centipawn value of a mate on the board: [`Score::centipawns`] counts mate in `n`
    /// as `MATE_CENTIPAWNS - n`, beyond any real evaluation.
    pub const MATE_CENTIPAWNS: i32 = 100_000;

    /// One number for comparisons and thresholds (adjudication, resignation): centipawns, or
    /// for a mate [`Score::MATE_CENTIPAWNS`] less the moves to it (the quicker the mate the
    /// larger), negative when being mated.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => Self::MATE_CENTIPAWNS - n,
            Score::Mate(n) => -Self::MATE_CENTIPAWNS - n,
        }
    }

    /// `true` for a forced mate, for either side.
    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }
}

impl Neg for Score {
    type Output = Score;

    /// The same score seen by the other side.
    fn neg(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(cp.saturating_neg()),
            Score::Mate(n) => Score::Mate(n.saturating_neg()),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(n) => write!(f, "#{n}"),
        }
    }
}

/// The text is not a score (`+0.35`, `-1`, `#3`, `#-2`).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("invalid score {text:?}: expected pawns such as +0.35 or a mate such as #3 or #-2")]
pub struct ParseScoreError {
    text: String,
}

impl FromStr for Score {
    type Err = ParseScoreError;

    /// Reads pawns (`0.35`, `+1.2`, `-3`; rounded to whole centipawns) or a mate (`#3`,
    /// `#-2`), as written by `Display` and by PGN `[%eval]` comments.
    fn from_str(text: &str) -> Result<Score, ParseScoreError> {
        let error = || ParseScoreError { text: text.to_owned() };
        if let Some(moves) = text.strip_prefix('#') {
            return moves.parse().map(Score::Mate).map_err(|_| error());
        }
        // f64's parser also takes "inf", "NaN" and exponents; only plain decimals are pawns.
        let plain = text.strip_prefix(['+', '-']).unwrap_or(text);
        if plain.is_empty() || !plain.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return Err(error());
        }
        let pawns: f64 = text.parse().map_err(|_| error())?;
        let cp = (pawns * 100.0).round();
        if !(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&cp) {
            return Err(error());
        }
        Ok(Score::Cp(cp as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn text_form() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-120).to_string(), "-1.20");
        assert_eq!(Score::Cp(0).to_string(), "+0.00");
        assert_eq!(Score::Mate(3).to_string(), "#3");
        assert_eq!(Score::Mate(-2).to_string(), "#-2");
        assert_eq!("0.25".parse(), Ok(Score::Cp(25)));
        assert_eq!("-3".parse(), Ok(Score::Cp(-300)));
        assert_eq!("+1.005".parse(), Ok(Score::Cp(100)));
        assert_eq!("#-1".parse(), Ok(Score::Mate(-1)));
        for bad in ["", "#", "+", ".", "1..2", "inf", "NaN", "1e3", "# 3", "0x10", "99999999999"] {
            assert!(bad.parse::<Score>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn centipawns_order_mates_beyond_evaluations() {
        let ordered =
            [Score::Mate(0), Score::Mate(-1), Score::Cp(-5_000), Score::Cp(0), Score::Mate(4), Score::Mate(1)];
        for pair in ordered.windows(2) {
            assert!(pair[0].centipawns() < pair[1].centipawns(), "{pair:?}");
        }
        assert_eq!(Score::Mate(1).centipawns(), Score::MATE_CENTIPAWNS - 1);
        assert_eq!(Score::Mate(-1).centipawns(), -Score::MATE_CENTIPAWNS + 1);
    }

    proptest! {
        #[test]
        fn display_round_trips(cp in any::<i32>(), n in any::<i32>()) {
            prop_assert_eq!(Score::Cp(cp).to_string().parse::<Score>(), Ok(Score::Cp(cp)));
            prop_assert_eq!(Score::Mate(n).to_string().parse::<Score>(), Ok(Score::Mate(n)));
        }

        #[test]
        fn parsing_never_panics(text in "\\PC{0,12}") {
            let _ = text.parse::<Score>();
        }

        #[test]
        fn negation_changes_sides(cp in -1_000_000i32..1_000_000, n in -500i32..500) {
            prop_assert_eq!((-Score::Cp(cp)).centipawns(), -Score::Cp(cp).centipawns());
            prop_assert_eq!(-(-Score::Mate(n)), Score::Mate(n));
        }
    }
}
