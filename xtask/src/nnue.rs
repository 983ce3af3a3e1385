//! `cargo xtask nnue`: one generation of Tempo's network, from data to SPRT.
//!
//! 1. Builds the release `tempo-tools` and `tempo-uci` and keeps a copy of this engine (the
//!    parent) in the cache.
//! 2. Self-play data with the parent (`tempo-tools datagen`, viriformat), resumed if an
//!    earlier run of the same generation was interrupted.
//! 3. Trains the network (`tempo-tools train`), fresh or fine-tuned from `--init`, and puts
//!    its evaluation on the parent network's scale (`train --match-scale`: networks trained
//!    on search scores grow steeper each generation, and the search's margins do not).
//! 4. Plays the parent engine with the new network against the parent (`tempo-tools match`,
//!    SPRT, resumed from `sprt.pgn` if an earlier run started it), and prints the lineage
//!    entry to add to `engine/nets/README.md`.
//!
//! Large files stay out of the repository, in `$TEMPO_CACHE` (default `~/.cache/tempo`):
//! `data/genN.vf`, `nets/genN/`, `bin/`.

use crate::{release_binary, root, run};
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::process::Command;

/// The settings of one generation.
#[derive(Debug)]
pub struct Generation {
    pub gen: u32,
    pub games: u64,
    pub soft_nodes: u64,
    pub seed: u64,
    pub hidden: u32,
    /// The input mapping (`--inputs plain|mirrored|king-buckets4`; default mirrored, the
    /// shipped network's): plain inputs train with random file mirroring (`--mirror`), which
    /// mirrored ones (king buckets included) make pointless.
    pub inputs: String,
    pub epochs: u32,
    pub wdl: f64,
    /// Factor on the data's scores in the training target (`train --score-scale`).
    pub score_scale: f64,
    pub init: Option<PathBuf>,
    /// The network whose scale the new one takes (`--match-scale FILE`; default: the shipped
    /// network, unless the parent is the hand-crafted evaluation; `--no-match-scale`: none).
    pub match_scale: Option<PathBuf>,
    /// Earlier generations' data to train on as well (`--data FILE`, repeatable): every game
    /// is still Tempo's own, and a generation's fresh games alone are fewer than all of them.
    pub extra_data: Vec<PathBuf>,
    /// Generate data with (and test against) the hand-crafted evaluation: generation 1.
    pub parent_hce: bool,
    pub sprt_games: u64,
    pub tc: String,
    pub skip_match: bool,
}

impl Generation {
    pub fn from_flags(flags: &[&str]) -> Result<Generation> {
        let value = |name: &str| -> Option<&str> {
            flags.iter().position(|f| *f == name).and_then(|i| flags.get(i + 1).copied())
        };
        fn num<T: std::str::FromStr>(v: Option<&str>, name: &str, default: T) -> Result<T> {
            match v {
                Some(v) => v.parse().map_err(|_| anyhow::anyhow!("{name} needs a number, not {v:?}")),
                None => Ok(default),
            }
        }
        let gen = num(value("--gen"), "--gen", 0u32)?;
        if gen == 0 {
            bail!("--gen N (N >= 1) names the generation to make");
        }
        let parent_hce = flags.contains(&"--parent-hce");
        let match_scale = match value("--match-scale") {
            _ if flags.contains(&"--no-match-scale") => None,
            Some(file) => Some(PathBuf::from(file)),
            None if parent_hce => None,
            None => Some(shipped_network()?),
        };
        Ok(Generation {
            gen,
            games: num(value("--games"), "--games", 100_000)?,
            soft_nodes: num(value("--soft-nodes"), "--soft-nodes", 1_000)?,
            seed: num(value("--seed"), "--seed", u64::from(gen))?,
            hidden: match value("--hidden") {
                Some(v) => num(Some(v), "--hidden", 0)?,
                None => engine_hidden()?,
            },
            inputs: match value("--inputs").unwrap_or("mirrored") {
                inputs @ ("plain" | "mirrored" | "king-buckets4") => inputs.to_owned(),
                other => bail!("--inputs is plain, mirrored or king-buckets4, not {other:?}"),
            },
            epochs: num(value("--epochs"), "--epochs", 30)?,
            wdl: num(value("--wdl"), "--wdl", 0.3)?,
            score_scale: num(value("--score-scale"), "--score-scale", 1.0)?,
            init: value("--init").map(PathBuf::from),
            match_scale,
            extra_data: flags
                .windows(2)
                .filter(|pair| pair[0] == "--data")
                .map(|pair| PathBuf::from(pair[1]))
                .collect(),
            parent_hce,
            sprt_games: num(value("--sprt-games"), "--sprt-games", 2_000)?,
            tc: value("--tc").unwrap_or("10+0.1").to_owned(),
            skip_match: flags.contains(&"--skip-match"),
        })
    }
}

/// The value of `declaration VALUE;` in the repository's file `path`.
fn source_constant(path: &str, declaration: &str) -> Result<String> {
    let source = root().join(path);
    let text = std::fs::read_to_string(&source).with_context(|| format!("reading {}", source.display()))?;
    text.lines()
        .find_map(|line| line.strip_prefix(declaration))
        .and_then(|rest| rest.strip_suffix(';'))
        .map(|value| value.trim_matches('"').to_owned())
        .with_context(|| format!("no `{declaration}` in {}", source.display()))
}

/// The engine's shipped network: `engine/nets/` and the name `SHIPPED` in `engine/build.rs`
/// gives (the one source of that name; `EVALFILE` builds embed another file).
fn shipped_network() -> Result<PathBuf> {
    Ok(root().join("engine/nets").join(source_constant("engine/build.rs", "const SHIPPED: &str = ")?))
}

/// The engine's `HIDDEN`: the width of its shipped network (the engine reads it from the
/// embedded file's header at compile time), the only width its `EvalFile` loads. Read here
/// from the same header bytes (16 to 19, little-endian), so that xtask need not build the
/// engine.
fn engine_hidden() -> Result<u32> {
    let path = shipped_network()?;
    let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    match bytes.get(16..20) {
        Some(field) if bytes.starts_with(b"TEMPONNU") => Ok(u32::from_le_bytes(field.try_into().expect("4 bytes"))),
        _ => bail!("{} is not a Tempo network file", path.display()),
    }
}

/// The SPRT's adjudication (`tempo-tools match` arguments).
const ADJUDICATION: [&str; 10] =
    ["--resign-score", "1000", "--resign-moves", "4", "--draw-score", "10", "--draw-moves", "8", "--draw-after", "40"];

/// Whether `file` exists and was last written after `other`.
fn written_after(file: &std::path::Path, other: &std::path::Path) -> bool {
    let modified = |path: &std::path::Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    matches!((modified(file), modified(other)), (Some(a), Some(b)) if a > b)
}

/// `$TEMPO_CACHE`, or `~/.cache/tempo`.
fn cache_dir() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("TEMPO_CACHE") {
        return Ok(PathBuf::from(dir));
    }
    let home = std::env::var_os("HOME").context("neither TEMPO_CACHE nor HOME is set")?;
    Ok(PathBuf::from(home).join(".cache").join("tempo"))
}

pub fn generation(g: &Generation) -> Result<()> {
    let cache = cache_dir()?;
    let (bin_dir, data_dir, net_dir) =
        (cache.join("bin"), cache.join("data"), cache.join("nets").join(format!("gen{}", g.gen)));
    for dir in [&bin_dir, &data_dir, &net_dir] {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let tools = release_binary("tempo-tools", "tempo-tools")?;
    let engine = release_binary("tempo-uci", "tempo-uci")?;
    // The parent keeps playing while the tree changes: it runs from its own copy.
    let parent = bin_dir.join(format!("tempo-uci-parent-of-gen{}", g.gen));
    std::fs::copy(&engine, &parent).with_context(|| format!("copying {}", engine.display()))?;
    let hce = ["--option", "UseNNUE=false"];

    let data = data_dir.join(format!("gen{}.vf", g.gen));
    let mut progress = data.clone().into_os_string();
    progress.push(".progress");
    let mut datagen = Command::new(&tools);
    datagen.args(["datagen", "--games", &g.games.to_string(), "--soft-nodes", &g.soft_nodes.to_string()]);
    datagen.args(["--nodes", &(g.soft_nodes * 10).to_string(), "--random-plies", "8-10"]);
    datagen.args(["--seed", &g.seed.to_string(), "--out"]).arg(&data);
    if g.parent_hce {
        datagen.args(hce);
    }
    if PathBuf::from(&progress).exists() {
        datagen.arg("--resume");
    }
    run(&mut datagen)?;
    run(Command::new(&tools).args(["data", "stats"]).arg(&data))?;

    let net = net_dir.join("net.nnue");
    let mut train = Command::new(&tools);
    train.arg("train").arg(&data).args(&g.extra_data).args([
        "--hidden",
        &g.hidden.to_string(),
        "--epochs",
        &g.epochs.to_string(),
    ]);
    train.args(["--wdl", &g.wdl.to_string(), "--score-scale", &g.score_scale.to_string()]);
    train.args(["--seed", &g.seed.to_string(), "--inputs", &g.inputs]);
    if g.inputs == "plain" {
        train.arg("--mirror");
    }
    train.arg("--out").arg(&net);
    if let Some(init) = &g.init {
        train.arg("--init").arg(init);
    }
    if let Some(parent_net) = &g.match_scale {
        train.arg("--match-scale").arg(parent_net);
    }
    run(&mut train)?;

    let hidden = engine_hidden()?;
    if !g.skip_match && g.hidden != hidden {
        // The parent's build loads networks of its own width only; a wider network plays
        // from a build of its own.
        println!(
            "\nThe SPRT needs an engine built for {} neurons (this one has HIDDEN = {hidden}): copy {} \
             to engine/nets/ under the name `train` printed and name it SHIPPED in engine/build.rs (or \
             build with `make EVALFILE=<its absolute path>`: the width is the embedded network's), build, and play `tempo-tools match --engine \
             target/release/tempo-uci --engine {}` with the SPRT settings of engine/nets/README.md.",
            g.hidden,
            net.display(),
            parent.display()
        );
        return Ok(());
    }
    if !g.skip_match {
        let mut play = Command::new(&tools);
        play.args(["match", "--engine"]).arg(&parent);
        play.arg("--option").arg(format!("1:EvalFile={}", net.display())).args(["--option", "1:UseNNUE=true"]);
        if g.parent_hce {
            play.args(["--option", "2:UseNNUE=false"]);
        }
        play.args(["--tc", &g.tc, "--games", &g.sprt_games.to_string(), "--concurrency", "2", "--sprt", "0,10"]);
        // Decided games end early, as testers adjudicate them: both engines agree on a
        // 10-pawn lead for 4 moves, or on a dead draw (10 cp) for 8 moves from move 40.
        play.args(ADJUDICATION);
        play.arg("--openings").arg(root().join("data/openings/openings.epd"));
        // An SPRT outlasts a sitting: an earlier one's games count (`match --resume`), as
        // long as they were played by this network (written after it).
        let games = net_dir.join("sprt.pgn");
        play.arg("--pgn").arg(&games);
        if written_after(&games, &net) {
            play.arg("--resume");
        } else if games.exists() {
            // An earlier network's SPRT: kept under another name (a match never writes over
            // games), and this network's starts afresh.
            let kept = (1..).map(|n| net_dir.join(format!("sprt-earlier-{n}.pgn"))).find(|p| !p.exists());
            let kept = kept.expect("a free name");
            std::fs::rename(&games, &kept)?;
            println!("the earlier network's SPRT games are kept in {}", kept.display());
        }
        run(&mut play)?;
    }
    println!(
        "\nGeneration {} is in {}. If it passed its SPRT: copy net.nnue to engine/nets/ under the name \
         `train` printed, set `SHIPPED` in engine/build.rs to that name, and add its entry (data, \
         training summary, SPRT line) to engine/nets/README.md.",
        g.gen,
        net_dir.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Generation;
    use std::path::PathBuf;

    #[test]
    fn flags_become_settings() {
        let flags = ["--gen", "2", "--data", "a.vf", "--epochs", "20", "--data", "b.vf"];
        let g = Generation::from_flags(&flags).unwrap();
        assert_eq!((g.gen, g.epochs, g.seed, g.hidden), (2, 20, 2, super::engine_hidden().unwrap()));
        assert!(g.hidden >= 8 && g.hidden % 8 == 0, "HIDDEN read from the engine: {}", g.hidden);
        assert_eq!(g.extra_data, [PathBuf::from("a.vf"), PathBuf::from("b.vf")]);
        assert!(!g.parent_hce && g.init.is_none());
        assert_eq!((g.wdl, g.score_scale), (0.3, 1.0));
        let g = Generation::from_flags(&["--gen", "6", "--score-scale", "0.8"]).unwrap();
        assert_eq!(g.score_scale, 0.8);
        let shipped = g.match_scale.unwrap();
        assert!(shipped.exists() && shipped.starts_with(crate::root().join("engine/nets")), "{}", shipped.display());
        let g = Generation::from_flags(&["--gen", "1", "--parent-hce"]).unwrap();
        assert_eq!(g.match_scale, None);
        let g = Generation::from_flags(&["--gen", "3", "--no-match-scale"]).unwrap();
        assert_eq!(g.match_scale, None);
        let g = Generation::from_flags(&["--gen", "3", "--match-scale", "p.nnue"]).unwrap();
        assert_eq!(g.match_scale, Some(PathBuf::from("p.nnue")));
        assert!(Generation::from_flags(&["--games", "10"]).is_err(), "--gen is required");
        assert!(Generation::from_flags(&["--gen", "1", "--games", "many"]).is_err());
        assert_eq!(Generation::from_flags(&["--gen", "3"]).unwrap().inputs, "mirrored");
        assert_eq!(Generation::from_flags(&["--gen", "3", "--inputs", "plain"]).unwrap().inputs, "plain");
        assert!(Generation::from_flags(&["--gen", "3", "--inputs", "king"]).is_err());
        let buckets = Generation::from_flags(&["--gen", "3", "--inputs", "king-buckets4"]).unwrap();
        assert_eq!(buckets.inputs, "king-buckets4");
    }
}
