//! The `uci_command` fuzz target as a property over arbitrary bytes (for toolchains without
//! cargo-fuzz): the command parser returns a command, nothing, or a typed error for every
//! line, and never panics.

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn uci_parser_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        for line in String::from_utf8_lossy(&bytes).lines() {
            let _ = tempo_uci::parse_command(line);
        }
    }

    #[test]
    fn uci_parser_never_panics_on_command_like_text(
        text in "(uci|isready|position|startpos|fen|moves|go|depth|nodes|movetime|wtime|btime|winc|binc|movestogo|mate|infinite|ponder|searchmoves|perft|setoption|name|value|Hash|MultiPV|[a-h][1-8][a-h][1-8][qrbn]?|-?[0-9]{1,25}|[/KQRBNPkqrbnp1-8]{1,12}|[ \t]{1,3}){0,30}"
    ) {
        let _ = tempo_uci::parse_command(&text);
    }
}
