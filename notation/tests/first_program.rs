//! Runs the newcomer's first program (`examples/first_program.rs`), so that the example both
//! compiles and works, and checks the PGN file it writes.

#[allow(dead_code)] // `main` is the example's entry point; the test calls `run`.
#[path = "../examples/first_program.rs"]
mod first_program;

#[test]
fn first_program_writes_and_reads_back_its_game() {
    let path = std::env::temp_dir().join(format!("tempo-first-program-test-{}.pgn", std::process::id()));
    let ran = first_program::run(&path);
    let written = std::fs::read_to_string(&path);
    let _ = std::fs::remove_file(&path);
    ran.expect("the first program runs to the end");
    let written = written.expect("the program wrote its PGN file");
    assert!(written.starts_with("[Event \"?\"]\n"), "{written}");
    assert!(written.contains("[White \"Newcomer\"]\n[Black \"?\"]\n[Result \"0-1\"]\n"), "{written}");
    assert!(written.ends_with("\n\n1. f3 e5 2. g4 Qh4# {Black mates} 0-1\n\n"), "{written}");
}
