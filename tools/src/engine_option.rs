//! `--option NAME=VALUE` for the commands that drive the built-in engine in-process
//! (`datagen`, `epd`), spelled as the UCI option names so that a setting reads the same in
//! every tool.

use anyhow::{Context, Result};
use tempo_engine::EngineOption;

/// Reads one `NAME=VALUE` setting (`UseNNUE=false`, `Hash=64`).
///
/// # Errors
/// When the text has no `=`, names no option of the engine, or the value does not fit it.
pub fn parse(text: &str) -> Result<EngineOption> {
    let (name, value) = text.split_once('=').with_context(|| format!("option {text:?}: expected NAME=VALUE"))?;
    EngineOption::parse(name.trim(), value.trim()).map_err(|e| anyhow::anyhow!("option {text:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_setting_by_its_uci_name() {
        assert_eq!(parse("Hash = 32").unwrap(), EngineOption::Hash(32));
    }

    #[test]
    fn rejects_what_is_not_a_setting() {
        for bad in ["Hash", "NoSuchOption=1", "Hash=lots", ""] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
