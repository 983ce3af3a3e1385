//! The search parameters as a tuner sees them: with the feature `tune` every parameter is a
//! UCI `spin` option that changes the search, and `spsa` prints OpenBench's SPSA input; a
//! default build has no such option.
//!
//! The parameters are process-wide, so each configuration is one test (tests in one binary
//! run in parallel threads).

mod common;

use common::{server, Buffer};
use tempo_engine::PARAMETERS;
#[cfg(feature = "tune")]
use tempo_uci::parse_spsa_input;
use tempo_uci::Server;

fn send(server: &mut Server<Buffer>, buffer: &Buffer, line: &str) -> String {
    server.handle_line(line);
    server.wait();
    buffer.take()
}

/// The node count of a fresh fixed-depth search of a middlegame position.
#[cfg(feature = "tune")]
fn nodes(server: &mut Server<Buffer>, buffer: &Buffer) -> u64 {
    send(server, buffer, "ucinewgame");
    send(server, buffer, "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let out = send(server, buffer, "go depth 9");
    let last = out.lines().rfind(|l| l.starts_with("info depth")).expect("an info line");
    let words: Vec<&str> = last.split(' ').collect();
    let at = words.iter().position(|w| *w == "nodes").expect("a node count");
    words[at + 1].parse().unwrap()
}

#[cfg(feature = "tune")]
#[test]
fn every_parameter_is_an_option_that_changes_the_search() {
    let (mut server, buffer) = server();
    let uci = send(&mut server, &buffer, "uci");
    for p in PARAMETERS {
        let line = format!("option name {} type spin default {} min {} max {}", p.name, p.default, p.min, p.max);
        assert!(uci.lines().any(|l| l == line), "missing {line:?} in\n{uci}");
    }

    // `spsa` prints every declaration, at its current value.
    let spsa = parse_spsa_input(&send(&mut server, &buffer, "spsa")).unwrap();
    assert_eq!(spsa.len(), PARAMETERS.len());
    for (line, p) in spsa.iter().zip(PARAMETERS) {
        assert_eq!(line.name, p.name);
        assert_eq!((line.value, line.min, line.max), (f64::from(p.default), f64::from(p.min), f64::from(p.max)));
        assert_eq!((line.c_end, line.r_end), (p.c_end, tempo_engine::R_END));
    }

    // Setting a value changes what the search does; setting the default back restores it.
    let before = nodes(&mut server, &buffer);
    assert_eq!(send(&mut server, &buffer, "setoption name rfp_margin value 40"), "");
    assert_eq!(send(&mut server, &buffer, "setoption name LMR_BASE value 150"), "");
    let changed = nodes(&mut server, &buffer);
    assert_ne!(changed, before, "the options did not reach the search");
    let spsa = parse_spsa_input(&send(&mut server, &buffer, "spsa")).unwrap();
    let value = |name: &str| spsa.iter().find(|p| p.name == name).unwrap().value;
    assert_eq!((value("rfp_margin"), value("lmr_base")), (40.0, 150.0));
    send(&mut server, &buffer, "setoption name rfp_margin value 80");
    send(&mut server, &buffer, "setoption name lmr_base value 75");
    assert_eq!(nodes(&mut server, &buffer), before);

    // A value outside the declared range is refused and changes nothing.
    let refused = send(&mut server, &buffer, "setoption name rfp_margin value 1000");
    assert!(refused.starts_with("info string") && refused.contains("rfp_margin"), "{refused}");
    assert_eq!(PARAMETERS.iter().find(|p| p.name == "rfp_margin").unwrap().value(), 80);
}

#[cfg(not(feature = "tune"))]
#[test]
fn a_default_build_has_no_parameter_options() {
    let (mut server, buffer) = server();
    let uci = send(&mut server, &buffer, "uci");
    for p in PARAMETERS {
        assert!(!uci.contains(&format!("option name {} ", p.name)), "{} is an option", p.name);
        let answer = send(&mut server, &buffer, &format!("setoption name {} value {}", p.name, p.default));
        assert!(answer.contains("unknown option"), "{}: {answer}", p.name);
    }
    let spsa = send(&mut server, &buffer, "spsa");
    assert!(spsa.starts_with("info string spsa: this build has no tunable parameters"), "{spsa}");
}
