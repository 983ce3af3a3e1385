//! The binaries the integration tests run: `tempo-tools` itself and the built-in engine
//! beside it.

use std::path::PathBuf;
use std::process::Command;

/// The `tempo-tools` binary under test.
pub fn tools() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tempo-tools"))
}

/// The built-in engine beside tempo-tools; `cargo test --workspace` builds it, a lone
/// `cargo test -p tempo-tools` may not, so build it then.
pub fn engine() -> PathBuf {
    let path = tools().with_file_name(format!("tempo-uci{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let status = Command::new(env!("CARGO")).args(["build", "-p", "tempo-uci"]).status().unwrap();
        assert!(status.success());
    }
    assert!(path.exists(), "{} missing", path.display());
    path
}
