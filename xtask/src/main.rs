//! `cargo xtask`: Tempo's orchestration. It only shells out to cargo and to the release
//! binaries, and depends on no workspace crate, so it builds in seconds.
//!
//! ```text
//! cargo xtask perft [--full]    perft suites in data/perft via the release tempo-tools (1e7 / 1e11 node caps)
//! cargo xtask bench [--check]   the engine bench; --check compares with the last `Bench:` commit line
//! cargo xtask ci                what CI runs: fmt, clippy -D warnings, the web site, the README test command, rustdoc
//! cargo xtask fuzz [--secs N]   every cargo-fuzz target for N seconds
//! cargo xtask benches           criterion benches of every crate
//! cargo xtask dist [--cpu LIST] release archives per CPU level with SHA-256 sums
//! cargo xtask nnue --gen N ...  one network generation: datagen, train, SPRT against the parent
//! cargo xtask chart             docs/strength.svg, the engine's strength by generation, from docs/strength.csv
//! cargo xtask web [--serve]     the browser page into target/web/ (WebAssembly), --serve serves it
//! ```
//!
//! `cargo xtask TASK --help` prints that task's lines of the help; `cargo xtask --help` all of it.

mod chart;
mod nnue;
#[cfg(test)]
mod tidy;
mod web;

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Node budget per count for the quick perft run.
const QUICK_PERFT_MAX_NODES: u64 = 10_000_000;
/// Node budget per count for `--full`: every count that finishes in minutes. The suites also
/// list the published start-position counts up to depth 13 (2e18 nodes, centuries of work),
/// which only `--max-nodes` beyond this can ask for.
const FULL_PERFT_MAX_NODES: u64 = 100_000_000_000;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags: Vec<&str> = args.iter().skip(1).map(String::as_str).collect();
    let task = args.first().map(String::as_str);
    if let Some((switches, options)) = task.and_then(task_flags) {
        if flags.iter().any(|f| matches!(*f, "--help" | "-h")) {
            println!("{}", task_help(task.unwrap_or_default()));
            return Ok(());
        }
        check_flags(task.unwrap_or_default(), &flags, switches, options)?;
    }
    match task {
        Some("perft") => {
            let max_nodes = match flags.iter().position(|f| *f == "--max-nodes") {
                Some(i) => flags.get(i + 1).and_then(|n| n.parse().ok()).context("--max-nodes needs a number")?,
                None if flags.contains(&"--full") => FULL_PERFT_MAX_NODES,
                None => QUICK_PERFT_MAX_NODES,
            };
            perft(max_nodes)
        }
        Some("bench") => bench(flags.contains(&"--check")),
        Some("ci") => ci(),
        Some("chart") => chart::chart(&root()),
        Some("fuzz") => {
            let secs = match flags.iter().position(|f| *f == "--secs") {
                Some(i) => flags.get(i + 1).and_then(|n| n.parse().ok()).context("--secs needs a number")?,
                None => 60,
            };
            fuzz(secs)
        }
        Some("benches") => run(cargo().args(["bench", "--workspace"]).args(&args[1..])),
        Some("dist") => {
            let cpus = match flags.iter().position(|f| *f == "--cpu") {
                Some(i) => flags.get(i + 1).context("--cpu needs a comma-separated list")?.to_string(),
                None => DEFAULT_CPUS.to_owned(),
            };
            dist(&cpus.split(',').map(str::trim).filter(|c| !c.is_empty()).collect::<Vec<_>>())
        }
        Some("nnue") => nnue::generation(&nnue::Generation::from_flags(&flags)?),
        Some("web") => {
            let port = match flags.iter().position(|f| *f == "--port") {
                Some(i) => flags.get(i + 1).and_then(|n| n.parse().ok()).context("--port needs a port number")?,
                None => 8000,
            };
            web::build()?;
            if flags.contains(&"--serve") {
                web::serve(port)?;
            }
            Ok(())
        }
        Some("help" | "--help" | "-h") | None => {
            println!("{}", HELP.trim());
            Ok(())
        }
        Some(other) => bail!("unknown xtask {other:?}\n\n{}", HELP.trim()),
    }
}

/// The switches and the options (flags followed by a value) of each task that checks its
/// arguments; `None` for `benches`, which hands them to `cargo bench`, and unknown tasks.
fn task_flags(task: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    match task {
        "perft" => Some((&["--full"], &["--max-nodes"])),
        "bench" => Some((&["--check"], &[])),
        "ci" | "chart" => Some((&[], &[])),
        "fuzz" => Some((&[], &["--secs"])),
        "dist" => Some((&[], &["--cpu"])),
        "web" => Some((&["--serve"], &["--port"])),
        "nnue" => Some((
            &["--parent-hce", "--skip-match", "--no-match-scale"],
            &[
                "--gen",
                "--match-scale",
                "--games",
                "--soft-nodes",
                "--seed",
                "--hidden",
                "--inputs",
                "--epochs",
                "--wdl",
                "--score-scale",
                "--init",
                "--data",
                "--sprt-games",
                "--tc",
            ],
        )),
        _ => None,
    }
}

/// Whether a line of `HELP` opens a task's entry (two spaces, then the task's name).
fn is_help_entry(line: &str) -> bool {
    line.starts_with("  ") && line.as_bytes().get(2).is_some_and(u8::is_ascii_lowercase)
}

/// The tasks `HELP` describes, in its order.
#[cfg(test)]
fn help_tasks() -> Vec<&'static str> {
    HELP.lines().filter(|l| is_help_entry(l)).filter_map(|l| l.split_whitespace().next()).collect()
}

/// The lines of `HELP` about `task`: its usage line and the indented text below it.
fn task_help(task: &str) -> String {
    let is_entry = is_help_entry;
    let mut lines = HELP.lines().skip_while(|l| !(is_entry(l) && l[2..].split_whitespace().next() == Some(task)));
    let Some(first) = lines.next() else { return HELP.trim().to_owned() };
    let rest = lines.take_while(|l| !is_entry(l) && !l.trim().is_empty());
    std::iter::once(format!("cargo xtask {}", first.trim_start()))
        .chain(rest.map(str::to_owned))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Refuses any argument that is not one of `switches` or one of `options` followed by its
/// value, so that a misspelt flag (`--ful`) is an error rather than a silent default.
fn check_flags(task: &str, flags: &[&str], switches: &[&str], options: &[&str]) -> Result<()> {
    let mut rest = flags.iter();
    while let Some(flag) = rest.next() {
        if options.contains(flag) {
            rest.next().with_context(|| format!("{flag} needs a value"))?;
        } else if !switches.contains(flag) {
            bail!("unexpected argument {flag:?} for `cargo xtask {task}`:\n\n{}", task_help(task));
        }
    }
    Ok(())
}

const HELP: &str = "
cargo xtask <task> [--help]

  perft [--full] [--max-nodes N]
                    run the perft suites in data/perft through the release tempo-tools:
                    counts up to 10M nodes, up to 1e11 with --full, or up to N
  bench [--check]   run the release engine bench; --check compares its node count with the
                    `Bench: N` line of the newest commit message that has one
  ci                what CI runs (.ci/run calls this), CI_STEPS in order: `cargo fmt
                    --all --check`, clippy -D warnings (also of tempo-uci's tune build),
                    the browser site (`cargo xtask web`), the README test command with
                    the tidy test, rustdoc -D warnings of tempo-core, tempo-notation,
                    tempo-engine and tempo-syzygy
  fuzz [--secs N]   run every cargo-fuzz target in fuzz/ for N seconds each (default 60);
                    without cargo-fuzz, the no-panic property tests of the parsers instead
  benches [ARGS]    the criterion benches of every crate (`cargo bench --workspace ARGS`)
  web [--serve [--port N]]
                    build the browser page into target/web/: tempo-web for WebAssembly with
                    and without SIMD, the wasm-bindgen CLI of the crate's version (installed
                    once if missing), the static files of web/www/; prints the sizes raw and
                    gzip-compressed; --serve then serves it at http://127.0.0.1:N/ (8000)
  chart             draw docs/strength.svg (the engine's strength by network generation)
                    from the match results in docs/strength.csv
  dist [--cpu x86-64,x86-64-v2,x86-64-v3,native]
                    release builds (profile `dist`) of tempo, tempo-uci and tempo-tools per
                    CPU level into target/dist/<version>/<cpu>/, with .tar.gz archives and
                    SHA-256 sums, after running the bench of each engine binary
  nnue --gen N [--parent-hce] [--games G] [--soft-nodes S] [--seed S] [--hidden H]
       [--inputs plain|mirrored|king-buckets4] [--epochs E] [--wdl W] [--score-scale K]
       [--init NET] [--data FILE]... [--sprt-games N] [--tc TC]
       [--match-scale NET | --no-match-scale] [--skip-match]
                    one generation of the network (engine/nets/README.md): self-play data
                    with this engine into $TEMPO_CACHE (default ~/.cache/tempo)/data/genN.vf
                    (resumed if interrupted), train nets/genN/net.nnue, and an SPRT [0,10]
                    match of the new network against this engine; --parent-hce for the
                    first generation, from the hand-crafted evaluation; --data adds earlier
                    generations' data files to the training set; --init fine-tunes a
                    network (the shipped engine/nets/*.nnue or a checkpoint) instead of
                    training from random weights; the new network takes the evaluation
                    scale of the shipped one (or of --match-scale NET); --hidden defaults
                    to the engine's HIDDEN, and another width stops before the SPRT with
                    what to build for it; --inputs defaults to mirrored (plain trains
                    with random file mirroring instead)
";

/// CPU levels `dist` builds by default.
const DEFAULT_CPUS: &str = "x86-64,x86-64-v2,x86-64-v3,native";
/// The binaries a release ships.
const DIST_BINARIES: [(&str, &str); 3] =
    [("tempo-cli", "tempo"), ("tempo-uci", "tempo-uci"), ("tempo-tools", "tempo-tools")];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

fn run(cmd: &mut Command) -> Result<()> {
    eprintln!("$ {cmd:?}");
    let status = cmd.status().with_context(|| format!("running {cmd:?}"))?;
    if !status.success() {
        bail!("{cmd:?} failed with {status}");
    }
    Ok(())
}

fn release_binary(package: &str, bin: &str) -> Result<PathBuf> {
    run(cargo().args(["build", "--release", "--package", package, "--bin", bin]))?;
    Ok(target_dir().join("release").join(format!("{bin}{}", std::env::consts::EXE_SUFFIX)))
}

fn perft(max_nodes: u64) -> Result<()> {
    let tools = release_binary("tempo-tools", "tempo-tools")?;
    let mut suites: Vec<PathBuf> = std::fs::read_dir(root().join("data/perft"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "epd"))
        .collect();
    suites.sort();
    let mut cmd = Command::new(tools);
    cmd.arg("perft").arg("--epd").args(&suites).args(["--max-nodes", &max_nodes.to_string()]);
    run(&mut cmd)
}

/// The `Bench: N` of the newest commit message that has one.
fn expected_bench() -> Result<Option<u64>> {
    let out = Command::new("git").current_dir(root()).args(["log", "--format=%B", "-n", "500"]).output()?;
    let log = String::from_utf8_lossy(&out.stdout);
    Ok(log.lines().find_map(|l| l.trim().strip_prefix("Bench:").and_then(|n| n.trim().parse().ok())))
}

fn bench(check: bool) -> Result<()> {
    let engine = release_binary("tempo-uci", "tempo-uci")?;
    let out = Command::new(&engine).arg("bench").output().with_context(|| format!("running {}", engine.display()))?;
    if !out.status.success() {
        bail!("{} bench failed: {}", engine.display(), String::from_utf8_lossy(&out.stderr));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().rev().find(|l| l.starts_with("Bench:")).context("no `Bench:` line in the bench output")?;
    println!("{last}");
    let nodes: u64 = last.split_whitespace().nth(1).and_then(|n| n.parse().ok()).context("malformed Bench line")?;
    if check {
        match expected_bench()? {
            Some(expected) if expected == nodes => println!("bench matches the last commit signature ({expected})"),
            Some(expected) => bail!("bench signature mismatch: {nodes} nodes, the commit log says {expected}"),
            None => bail!("no `Bench: N` line in the commit log to compare with"),
        }
    }
    Ok(())
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("target"))
}

/// The host's target triple, from `rustc -vV`.
fn host_triple() -> Result<String> {
    let out = Command::new("rustc").arg("-vV").output().context("running rustc -vV")?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().find_map(|l| l.strip_prefix("host: ")).map(str::to_owned).context("no host line in rustc -vV")
}

fn dist(cpus: &[&str]) -> Result<()> {
    if cpus.is_empty() {
        bail!("no CPU level given");
    }
    let version = env!("CARGO_PKG_VERSION");
    let triple = host_triple()?;
    let out_root = target_dir().join("dist").join(version);
    std::fs::create_dir_all(&out_root)?;
    let mut archives = Vec::new();
    for &cpu in cpus {
        // One build directory per level: RUSTFLAGS differ, so sharing one would rebuild
        // everything each time.
        let build_dir = target_dir().join("dist-build").join(cpu);
        let mut build = cargo();
        build.env("RUSTFLAGS", format!("-C target-cpu={cpu}")).env("CARGO_TARGET_DIR", &build_dir);
        build.args(["build", "--profile", "dist"]);
        for (package, _) in DIST_BINARIES {
            build.args(["--package", package]);
        }
        run(&mut build)?;

        let dir = out_root.join(cpu);
        std::fs::create_dir_all(&dir)?;
        for (_, bin) in DIST_BINARIES {
            let name = format!("{bin}{}", std::env::consts::EXE_SUFFIX);
            std::fs::copy(build_dir.join("dist").join(&name), dir.join(&name))
                .with_context(|| format!("copying {name}"))?;
        }

        // The engine must run its bench before it ships; a level this CPU cannot execute
        // (e.g. x86-64-v3 on a machine without AVX2) is reported, not silently shipped.
        let engine = dir.join(format!("tempo-uci{}", std::env::consts::EXE_SUFFIX));
        let bench =
            Command::new(&engine).arg("bench").output().with_context(|| format!("running {}", engine.display()))?;
        let text = String::from_utf8_lossy(&bench.stdout);
        match text.lines().rev().find(|l| l.starts_with("Bench:")) {
            Some(line) if bench.status.success() => println!("{cpu}: {line}"),
            _ => bail!("{cpu}: the engine bench failed ({}); not packaging it", bench.status),
        }

        let archive = out_root.join(format!("tempo-{version}-{triple}-{cpu}.tar.gz"));
        run(Command::new("tar").arg("czf").arg(&archive).arg("-C").arg(&out_root).arg(cpu))?;
        archives.push(archive);
    }
    let mut sums = Command::new("sha256sum");
    sums.current_dir(&out_root);
    for archive in &archives {
        sums.arg(archive.file_name().expect("archive has a name"));
    }
    let out = sums.output().context("running sha256sum")?;
    if !out.status.success() {
        bail!("sha256sum failed");
    }
    std::fs::write(out_root.join("SHA256SUMS"), &out.stdout)?;
    println!("\n{}:", out_root.display());
    print!("{}", String::from_utf8_lossy(&out.stdout));
    Ok(())
}

fn fuzz(secs: u64) -> Result<()> {
    let has_cargo_fuzz = cargo().args(["fuzz", "--version"]).output().is_ok_and(|o| o.status.success());
    if !has_cargo_fuzz {
        // The same targets exist as proptest properties over arbitrary bytes; they run a
        // fixed number of cases, so `--secs` does not apply to them.
        eprintln!(
            "cargo-fuzz is not installed (`cargo install cargo-fuzz`); running the same targets as \
             property tests instead (a fixed number of cases; --secs {secs} does not apply)"
        );
        return run(cargo().args(["test", "--workspace", "--", "never_panic", "legals_are_legal"]));
    }
    let listing = cargo().current_dir(root().join("fuzz")).args(["fuzz", "list"]).output()?;
    let targets = String::from_utf8_lossy(&listing.stdout).into_owned();
    for target in targets.lines().map(str::trim).filter(|t| !t.is_empty()) {
        let mut cmd = cargo();
        cmd.current_dir(root().join("fuzz"));
        // cargo-fuzz passes sanitizer flags that need a nightly compiler; RUSTC_BOOTSTRAP lets
        // a stable toolchain accept them.
        if std::env::var_os("RUSTUP_TOOLCHAIN").is_none_or(|t| !t.to_string_lossy().contains("nightly")) {
            cmd.env("RUSTC_BOOTSTRAP", "1");
        }
        cmd.args(["fuzz", "run", target, "--", &format!("-max_total_time={secs}")]);
        run(&mut cmd)?;
    }
    Ok(())
}

/// One command of CI: what it checks, cargo's arguments, and environment variables.
struct CiStep {
    what: &'static str,
    args: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
}

/// What CI runs, in order. This list is the single source of truth: `.ci/run` only adds the
/// rustup components and calls `cargo xtask ci`, so a step added here runs everywhere CI
/// does (the tidy test checks that `.ci/run` still delegates and that the README's test
/// command is a step). The release perft and bench runs stay out: their LTO builds would
/// double CI's few minutes, and `cargo test --workspace` already runs every perft suite to a
/// node budget and asserts the bench node count (`engine/tests/bench.rs`).
const CI_STEPS: &[CiStep] = &[
    CiStep { what: "formatting", args: &["fmt", "--all", "--check"], env: &[] },
    CiStep { what: "lints", args: &["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"], env: &[] },
    // The search parameters' `tune` build (UCI options, the `spsa` command): a check-only
    // build of two crates, so that it cannot rot unseen.
    CiStep {
        what: "lints of the tune build",
        args: &["clippy", "-p", "tempo-uci", "--features", "tune", "--all-targets", "--", "-D", "warnings"],
        env: &[],
    },
    // The browser test (web/tests/browser.rs) loads the site from target/web/; this builds it
    // (installing the wasm-bindgen CLI once when missing).
    CiStep { what: "the browser page, for the browser test", args: &["xtask", "web"], env: &[] },
    // The Syzygy oracle tests fetch python-chess's tables with pip, and the browser test needs
    // Chromium and the site; in CI their absence fails.
    CiStep {
        what: "the README's test command, with the tidy test",
        args: &["test", "--workspace"],
        env: &[("TEMPO_SYZYGY_REQUIRED", "1"), ("TEMPO_WEB_REQUIRED", "1")],
    },
    CiStep {
        what: "API documentation of the published crates",
        args: &[
            "doc",
            "--no-deps",
            "-p",
            "tempo-core",
            "-p",
            "tempo-notation",
            "-p",
            "tempo-engine",
            "-p",
            "tempo-syzygy",
        ],
        env: &[("RUSTDOCFLAGS", "-D warnings")],
    },
];

fn ci() -> Result<()> {
    for step in CI_STEPS {
        eprintln!("== {}", step.what);
        let mut cmd = cargo();
        cmd.args(step.args).envs(step.env.iter().copied());
        run(&mut cmd)?;
    }
    eprintln!("== CI passed");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `--flags` of `text` outside backtick spans (which quote other programs' flags).
    fn flags_outside_code(text: &str) -> Vec<String> {
        text.split('`')
            .step_by(2)
            .flat_map(str::split_whitespace)
            .map(|w| w.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '-')))
            .filter(|w| w.starts_with("--") && w.len() > 2)
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn every_task_of_the_help_is_dispatched_and_every_flag_it_shows_is_accepted() {
        let tasks = help_tasks();
        assert_eq!(tasks, ["perft", "bench", "ci", "fuzz", "benches", "web", "chart", "dist", "nnue"]);
        for task in tasks {
            let help = task_help(task);
            assert!(help.starts_with(&format!("cargo xtask {task}")), "{help}");
            // `benches` hands its arguments to `cargo bench`.
            let Some((switches, options)) = task_flags(task) else {
                assert_eq!(task, "benches");
                continue;
            };
            for flag in flags_outside_code(&help) {
                assert!(
                    switches.contains(&flag.as_str()) || options.contains(&flag.as_str()),
                    "`cargo xtask {task} --help` shows {flag}, which `cargo xtask {task}` refuses"
                );
            }
        }
    }

    #[test]
    fn task_help_is_the_task_s_entry_only() {
        let perft = task_help("perft");
        assert!(perft.starts_with("cargo xtask perft [--full] [--max-nodes N]\n"), "{perft}");
        assert!(perft.contains("up to 1e11 with --full"));
        assert!(!perft.contains("bench"), "{perft}");
        let nnue = task_help("nnue");
        assert!(
            nnue.contains("[--inputs plain|mirrored|king-buckets4]")
                && nnue.ends_with("random file mirroring instead)")
        );
        assert_eq!(task_help("no-such-task"), HELP.trim());
    }

    #[test]
    fn misspelt_and_valueless_flags_are_refused() {
        let (switches, options) = task_flags("perft").unwrap();
        assert!(check_flags("perft", &["--full", "--max-nodes", "5"], switches, options).is_ok());
        let error = check_flags("perft", &["--ful"], switches, options).unwrap_err().to_string();
        assert!(
            error.starts_with("unexpected argument \"--ful\" for `cargo xtask perft`:\n\ncargo xtask perft [--full]"),
            "{error}"
        );
        assert!(!error.contains("nnue"), "the task's help, not all of it: {error}");
        let error = check_flags("perft", &["--max-nodes"], switches, options).unwrap_err().to_string();
        assert_eq!(error, "--max-nodes needs a value");
        let (switches, options) = task_flags("nnue").unwrap();
        assert!(check_flags("nnue", &["--gen", "8", "--inputs", "king-buckets4", "--skip-match"], switches, options)
            .is_ok());
    }

    #[test]
    fn ci_help_names_every_package_ci_documents() {
        let help = task_help("ci");
        for step in CI_STEPS {
            for pair in step.args.windows(2).filter(|pair| pair[0] == "-p") {
                assert!(help.contains(pair[1]), "`cargo xtask ci --help` does not name {}, which CI checks", pair[1]);
            }
        }
    }
}
