//! Embedded commands in PGN comments: `[%clk 0:03:00]`, `[%emt 0:00:05.2]`, `[%eval 0.25]`,
//! `[%eval #-3]`, `[%eval 0.10,20]` (with search depth), as data.

use std::time::Duration;

use tempo_core::Score;

/// The commands of one comment that Tempo understands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// `[%clk]`: the mover's time left after the move.
    pub clock: Option<Duration>,
    /// `[%emt]`: time the move took.
    pub elapsed: Option<Duration>,
    /// `[%eval]`: the evaluation, from White's point of view.
    pub eval: Option<Score>,
    /// Search depth given with the evaluation (`[%eval 0.10,20]`).
    pub depth: Option<u32>,
}

/// Every `[%name args]` command in `comment`, as (name, args) pairs.
pub fn commands(comment: &str) -> impl Iterator<Item = (&str, &str)> {
    comment.split("[%").skip(1).filter_map(|rest| {
        let body = &rest[..rest.find(']')?];
        let body = body.trim();
        Some(match body.find(char::is_whitespace) {
            Some(i) => (&body[..i], body[i..].trim()),
            None => (body, ""),
        })
    })
}

/// Parses `h:mm:ss`, `mm:ss` or `ss`, each with an optional decimal fraction on the seconds.
pub fn parse_clock(text: &str) -> Option<Duration> {
    let mut total = 0u64;
    let mut parts = text.trim().split(':').peekable();
    let mut nanos = 0u32;
    let mut count = 0;
    while let Some(part) = parts.next() {
        count += 1;
        if count > 3 {
            return None;
        }
        if parts.peek().is_none() {
            let (secs, frac) = part.split_once('.').unwrap_or((part, ""));
            if secs.is_empty() || !secs.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            if frac.len() > 9 || (part.contains('.') && frac.is_empty()) {
                return None;
            }
            total = total.checked_mul(60)?.checked_add(secs.parse().ok()?)?;
            if !frac.is_empty() {
                nanos = format!("{frac:0<9}").parse().ok()?;
            }
        } else {
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            total = total.checked_mul(60)?.checked_add(part.parse().ok()?)?;
        }
    }
    Some(Duration::new(total, nanos))
}

/// Writes a duration as `[%clk]` does: `h:mm:ss` with a decimal fraction if needed.
pub fn format_clock(d: Duration) -> String {
    let secs = d.as_secs();
    let mut out = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if d.subsec_nanos() != 0 {
        let frac = format!("{:09}", d.subsec_nanos());
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out
}

fn parse_eval(text: &str) -> Option<(Score, Option<u32>)> {
    let (value, depth) = match text.split_once(',') {
        Some((v, d)) => (v.trim(), Some(d.trim().parse().ok()?)),
        None => (text.trim(), None),
    };
    Some((value.parse().ok()?, depth))
}

impl Annotations {
    /// The commands of `comment` (unknown or malformed ones are ignored).
    pub fn parse(comment: &str) -> Annotations {
        let mut out = Annotations::default();
        for (name, args) in commands(comment) {
            match name {
                "clk" => out.clock = out.clock.or(parse_clock(args)),
                "emt" => out.elapsed = out.elapsed.or(parse_clock(args)),
                "eval" => {
                    if let Some((eval, depth)) = parse_eval(args) {
                        out.eval.get_or_insert(eval);
                        out.depth = out.depth.or(depth);
                    }
                }
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_commands() {
        let a = Annotations::parse("[%clk 0:03:01.5] [%emt 0:00:00.5] text [%eval 0.10,20]");
        assert_eq!(a.clock, Some(Duration::from_millis(181_500)));
        assert_eq!(a.elapsed, Some(Duration::from_millis(500)));
        assert_eq!(a.eval, Some(Score::Cp(10)));
        assert_eq!(a.depth, Some(20));
        assert_eq!(Annotations::parse("[%eval #-1]").eval, Some(Score::Mate(-1)));
        assert_eq!(Annotations::parse("[%clk bad] [%eval x]"), Annotations::default());
        assert_eq!(parse_clock("1:02:03"), Some(Duration::from_secs(3723)));
        assert_eq!(parse_clock("5"), Some(Duration::from_secs(5)));
        assert_eq!(parse_clock("1:2:3:4"), None);
        assert_eq!(format_clock(Duration::from_millis(181_500)), "0:03:01.5");
    }
}
