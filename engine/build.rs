//! Chooses the network built into the engine: the shipped one in `nets/`, or the file named
//! by the `EVALFILE` environment variable (an absolute path), as OpenBench builds a network
//! test with `make EVALFILE=<path>`. The choice reaches the code as two variables:
//! `TEMPO_NETWORK_PATH` (for `include_bytes!`) and `TEMPO_NETWORK_NAME` (the file name the
//! `EvalFile` option shows).

use std::path::{Path, PathBuf};

/// The shipped network, in `engine/nets/`: `tempo-<first 12 hex digits of its SHA-256>.nnue`
/// (a test checks the name against the bytes). To ship another network, change this name.
const SHIPPED: &str = "tempo-a22e78e1d741.nnue";

fn main() {
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let path = match std::env::var_os("EVALFILE").filter(|v| !v.is_empty()) {
        Some(file) => {
            let file = PathBuf::from(file);
            // include_bytes! reads a relative path from the source file, not from where make
            // ran: only an absolute path means the same thing everywhere.
            assert!(file.is_absolute(), "EVALFILE must be an absolute path, got {}", file.display());
            assert!(file.is_file(), "EVALFILE {} is not a file", file.display());
            file
        }
        None => Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("nets").join(SHIPPED),
    };
    let name = path.file_name().expect("a file has a name").to_string_lossy().into_owned();
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rustc-env=TEMPO_NETWORK_PATH={}", path.display());
    println!("cargo:rustc-env=TEMPO_NETWORK_NAME={name}");
}
