//! The test tables and the oracle: python-chess 1.11.2's source package carries the complete
//! 3- and 4-men Syzygy set, `data/endgame.epd` and `chess.syzygy`, which these tests fetch
//! with pip into a cache (`$TEMPO_CACHE/syzygy`, default `~/.cache/tempo/syzygy`) once and
//! never commit. The oracle runs from that source tree (`PYTHONPATH`), so nothing is
//! installed.
//!
//! Without network or Python a test prints why and passes, unless `TEMPO_SYZYGY_REQUIRED`
//! is set (CI sets it, `cargo xtask ci`), when the absence is a failure.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

const PACKAGE: &str = "chess-1.11.2";

fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("TEMPO_CACHE") {
        return PathBuf::from(dir).join("syzygy");
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    home.join(".cache").join("tempo").join("syzygy")
}

fn required() -> bool {
    std::env::var_os("TEMPO_SYZYGY_REQUIRED").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The unpacked python-chess source tree, fetched on first use.
fn fetch() -> Result<PathBuf, String> {
    let cache = cache_dir();
    let tree = cache.join(PACKAGE);
    if tree.join("data/syzygy/regular/KQvK.rtbw").is_file() {
        return Ok(tree);
    }
    std::fs::create_dir_all(&cache).map_err(|e| format!("creating {}: {e}", cache.display()))?;
    let python = python();
    let status = Command::new(&python)
        .args(["-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:", "chess==1.11.2", "-d"])
        .arg(&cache)
        .status()
        .map_err(|e| format!("running {python} -m pip: {e}"))?;
    if !status.success() {
        return Err(format!("pip download chess==1.11.2 failed ({status})"));
    }
    // Unpack beside the final place and rename, so that an interrupted run leaves no half tree.
    let staging = cache.join(format!("staging-{}", std::process::id()));
    std::fs::create_dir_all(&staging).map_err(|e| e.to_string())?;
    let status = Command::new("tar")
        .arg("xzf")
        .arg(cache.join(format!("{PACKAGE}.tar.gz")))
        .arg("-C")
        .arg(&staging)
        .status()
        .map_err(|e| format!("running tar: {e}"))?;
    if !status.success() {
        return Err(format!("unpacking {PACKAGE}.tar.gz failed ({status})"));
    }
    if std::fs::rename(staging.join(PACKAGE), &tree).is_err() && !tree.is_dir() {
        return Err(format!("could not move the unpacked tree to {}", tree.display()));
    }
    let _ = std::fs::remove_dir_all(&staging);
    Ok(tree)
}

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// The python-chess source tree, or `None` (after saying why) when it cannot be had and CI
/// does not require it.
pub fn python_chess() -> Option<&'static Path> {
    static TREE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match TREE.get_or_init(fetch) {
        Ok(tree) => Some(tree),
        Err(why) if required() => panic!("the Syzygy test tables are required (TEMPO_SYZYGY_REQUIRED) but: {why}"),
        Err(why) => {
            eprintln!("SKIPPED: no Syzygy test tables ({why}); set TEMPO_SYZYGY_REQUIRED=1 to make this a failure");
            None
        }
    }
}

/// The folder of the 3- and 4-men tables.
pub fn tables() -> Option<PathBuf> {
    python_chess().map(|tree| tree.join("data/syzygy/regular"))
}

/// python-chess's WDL and DTZ of each FEN (`None` where it raises), from `oracle.py`.
pub fn oracle(fens: &[String]) -> Option<Vec<(Option<i32>, Option<i32>)>> {
    let tree = python_chess()?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle.py");
    let mut child = Command::new(python())
        .arg(&script)
        .arg(tree.join("data/syzygy/regular"))
        .env("PYTHONPATH", tree)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("running the python-chess oracle");
    let mut stdin = child.stdin.take().expect("piped");
    let input = fens.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("the oracle's output");
    writer.join().expect("writer thread").expect("writing FENs to the oracle");
    assert!(output.status.success(), "the oracle failed");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let values: Vec<_> = text
        .lines()
        .map(|line| {
            let mut fields = line.split(' ').map(|f| f.parse::<i32>().ok());
            (fields.next().flatten(), fields.next().flatten())
        })
        .collect();
    assert_eq!(values.len(), fens.len(), "one oracle line per FEN");
    Some(values)
}
