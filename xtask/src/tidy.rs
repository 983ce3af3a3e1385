//! The repository's rules, checked by `cargo test --workspace` (in the style of
//! rust-analyzer's `xtask/src/tidy.rs`): rules that only live in prose drift, so the ones a
//! program can see are tests here.
//!
//! - Dependency direction: each workspace crate depends (normal, build or dev) only on the
//!   workspace crates `ALLOWED_EDGES` lists, the table of ARCHITECTURE.md's "Dependency
//!   direction".
//! - Licences: no GPL-only crate is reachable from a workspace crate through normal or build
//!   dependencies; GPL crates serve as test oracles only.
//! - Documentation: every target's root (library, binary, test, bench, example, build
//!   script) and every module file under `src/` opens with a `//!` comment.
//! - Documented commands: every `cargo xtask TASK --flag` in a Markdown file names a task and
//!   flags that `cargo xtask` accepts.
//! - Self-containment: relative links in Markdown files lead to files that exist, and no file
//!   refers to the directory beside the repository that earlier tooling shared.
//!
//! Each checker is a pure function from its input to a list of violations, so the unit tests
//! below can show it failing on synthetic input; the `repository_*` tests run it on the tree.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// The workspace crates each workspace crate may depend on, kind of dependency regardless.
/// This is ARCHITECTURE.md's "Dependency direction"; change both together.
const ALLOWED_EDGES: &[(&str, &[&str])] = &[
    ("tempo-core", &[]),
    ("tempo-notation", &["tempo-core"]),
    ("tempo-engine", &["tempo-syzygy", "tempo-core"]),
    ("tempo-syzygy", &["tempo-core"]),
    ("tempo-uci", &["tempo-engine", "tempo-syzygy", "tempo-notation", "tempo-core"]),
    ("tempo-output", &[]),
    ("tempo-cli", &["tempo-output", "tempo-uci", "tempo-engine", "tempo-syzygy", "tempo-notation", "tempo-core"]),
    ("tempo-tools", &["tempo-output", "tempo-uci", "tempo-engine", "tempo-syzygy", "tempo-notation", "tempo-core"]),
    ("tempo-web", &["tempo-engine", "tempo-notation", "tempo-core"]),
    ("xtask", &[]),
];

/// GPL crates known to the project, refused as shipped dependencies whatever their metadata
/// says, in case a release changes its `license` field to an expression this check misreads.
const KNOWN_GPL: &[&str] = &["shakmaty", "pgn-reader"];

/// Built from pieces so that this file does not trip its own check.
fn outside_path() -> String {
    ["..", "shared"].join("/")
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(workspace_root())
        .args(["metadata", "--format-version", "1"])
        .output()
        .expect("running cargo metadata");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

fn str_field<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or("")
}

fn workspace_packages(meta: &Value) -> Vec<&Value> {
    let members: BTreeSet<&str> =
        meta["workspace_members"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    meta["packages"].as_array().into_iter().flatten().filter(|p| members.contains(str_field(p, "id"))).collect()
}

/// Violations of `allowed` by the workspace crates' declared dependencies of every kind.
fn check_dependency_direction(meta: &Value, allowed: &[(&str, &[&str])]) -> Vec<String> {
    let packages = workspace_packages(meta);
    let names: BTreeSet<&str> = packages.iter().map(|p| str_field(p, "name")).collect();
    let table: BTreeMap<&str, &[&str]> = allowed.iter().copied().collect();
    let mut errors = Vec::new();
    for package in &packages {
        let name = str_field(package, "name");
        let manifest = str_field(package, "manifest_path");
        let Some(may_use) = table.get(name) else {
            errors.push(format!(
                "{manifest}: workspace crate {name} has no row in ALLOWED_EDGES (xtask/src/tidy.rs); \
                 decide where it sits in ARCHITECTURE.md's dependency direction and add it to both"
            ));
            continue;
        };
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            let dep_name = str_field(dep, "name");
            if names.contains(dep_name) && !may_use.contains(&dep_name) {
                let kind = dep["kind"].as_str().unwrap_or("normal");
                errors.push(format!(
                    "{manifest}: {name} has a {kind} dependency on {dep_name}, against ARCHITECTURE.md's \
                     dependency direction ({name} may use {may_use:?}); move the code or the test that \
                     needs {dep_name} into a crate above both"
                ));
            }
        }
    }
    errors
}

/// Whether a licence expression leaves no choice but the GPL family (GPL, LGPL, AGPL). An
/// alternative without GPL (`MIT OR LGPL-2.1`, the old `MIT/GPL` form) is a way out.
fn is_gpl_only(license: &str) -> bool {
    license.contains("GPL") && license.replace('/', " OR ").split(" OR ").all(|alternative| alternative.contains("GPL"))
}

fn is_gpl_package(package: &Value) -> bool {
    KNOWN_GPL.contains(&str_field(package, "name")) || is_gpl_only(str_field(package, "license"))
}

/// GPL crates in the resolved graph that a workspace crate pulls in through normal or build
/// dependencies, directly or through other crates, each with the chain that brings it in.
fn check_gpl_only_in_dev(meta: &Value) -> Vec<String> {
    let packages: BTreeMap<&str, &Value> =
        meta["packages"].as_array().into_iter().flatten().map(|p| (str_field(p, "id"), p)).collect();
    let nodes: BTreeMap<&str, &Value> =
        meta["resolve"]["nodes"].as_array().into_iter().flatten().map(|n| (str_field(n, "id"), n)).collect();
    let shipped_edge = |dep: &Value| {
        dep["dep_kinds"].as_array().into_iter().flatten().any(|k| k["kind"].is_null() || k["kind"] == "build")
    };
    // Breadth first from every workspace crate over shipped edges only, remembering each
    // crate's parent so that a failure can show how the GPL crate gets in.
    let mut parent: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    let mut queue = VecDeque::new();
    for package in workspace_packages(meta) {
        parent.insert(str_field(package, "id"), None);
        queue.push_back(str_field(package, "id"));
    }
    while let Some(id) = queue.pop_front() {
        for dep in nodes.get(id).map(|n| &n["deps"]).and_then(Value::as_array).into_iter().flatten() {
            let dep_id = str_field(dep, "pkg");
            if shipped_edge(dep) && !parent.contains_key(dep_id) {
                parent.insert(dep_id, Some(id));
                queue.push_back(dep_id);
            }
        }
    }
    let name = |id: &str| packages.get(id).map_or(id.to_owned(), |p| str_field(p, "name").to_owned());
    let mut errors = Vec::new();
    for (&id, _) in parent.iter().filter(|(_, from)| from.is_some()) {
        let Some(package) = packages.get(id) else { continue };
        if !is_gpl_package(package) {
            continue;
        }
        let mut chain = vec![name(id)];
        let mut at = id;
        while let Some(Some(from)) = parent.get(at) {
            chain.push(name(from));
            at = from;
        }
        chain.reverse();
        let root_manifest = packages.get(at).map_or("", |p| str_field(p, "manifest_path"));
        errors.push(format!(
            "{root_manifest}: {} (licence {:?}) is shipped through {}; GPL crates may only be \
             dev-dependencies (ARCHITECTURE.md, rule 5): move it to [dev-dependencies] or drop \
             the crate that brings it in",
            name(id),
            str_field(package, "license"),
            chain.join(" -> ")
        ));
    }
    errors
}

/// Whether Rust source opens with an inner doc comment, after blank lines only.
fn has_module_doc(source: &str) -> bool {
    source.trim_start().starts_with("//!")
}

/// Whether `file` is pulled into another file of `sources` with `include!`, which makes it a
/// fragment of that module (generated tables, tuned weights) where `//!` is not allowed.
fn is_included(file: &Path, sources: &[(PathBuf, String)]) -> bool {
    let Some(file_name) = file.file_name().and_then(|n| n.to_str()) else { return false };
    let needle = format!("include!(\"{file_name}\")");
    sources.iter().any(|(path, text)| path.parent() == file.parent() && path != file && text.contains(&needle))
}

/// Module files without a `//!` opening; `sources` are every `.rs` file under the crates'
/// `src/` directories and `roots` the lib and bin targets' root files.
fn check_module_docs(sources: &[(PathBuf, String)], roots: &BTreeSet<PathBuf>) -> Vec<String> {
    sources
        .iter()
        .filter(|(path, text)| !has_module_doc(text) && (roots.contains(path) || !is_included(path, sources)))
        .map(|(path, _)| {
            format!(
                "{}: no module documentation; start the file with `//!` lines saying what the module \
                 is for (its contract, not its contents)",
                path.display()
            )
        })
        .collect()
}

/// The destinations of inline links (`[text](dest)`) and reference definitions
/// (`[label]: dest`) in Markdown, outside code blocks and code spans.
fn markdown_links(markdown: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans are removed first: `a[i](j)` in code is no link.
        let mut text = String::new();
        for (i, piece) in line.split('`').enumerate() {
            if i % 2 == 0 {
                text.push_str(piece);
            }
        }
        if let Some(rest) = text.trim_start().strip_prefix('[') {
            if let Some((_, dest)) = rest.split_once("]:") {
                if let Some(dest) = dest.split_whitespace().next() {
                    links.push(dest.trim_matches(['<', '>']).to_owned());
                }
            }
        }
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            // `<...>` destinations may hold spaces; others end at a space (before a title).
            let dest = match rest.strip_prefix('<') {
                Some(inside) => inside.split('>').next(),
                None => rest.split(')').next().and_then(|d| d.split_whitespace().next()),
            };
            if let Some(dest) = dest {
                links.push(dest.to_owned());
            }
        }
    }
    links
}

/// Relative links of the Markdown file `file` (relative to `root`) that lead nowhere.
fn check_markdown_links(root: &Path, file: &Path, markdown: &str) -> Vec<String> {
    let mut errors = Vec::new();
    for link in markdown_links(markdown) {
        let is_url = link.split_once(':').is_some_and(|(scheme, _)| {
            !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        });
        let path = link.split(['#', '?']).next().unwrap_or("");
        if is_url || path.is_empty() {
            continue;
        }
        let target = match path.strip_prefix('/') {
            Some(from_root) => root.join(from_root),
            None => root.join(file).parent().expect("a file has a directory").join(path),
        };
        let escapes = lexically_normal(&target).is_none_or(|t| !t.starts_with(root));
        if escapes {
            errors.push(format!(
                "{}: the link {link:?} leads outside the repository; a clean clone must be \
                 self-contained, so copy what it needs into the repository or link a URL",
                file.display()
            ));
        } else if !target.exists() {
            errors.push(format!(
                "{}: the link {link:?} leads to {}, which does not exist; fix the path or drop the link",
                file.display(),
                target.display()
            ));
        }
    }
    errors
}

/// `path` with `.` and `..` resolved without touching the file system (a link to a missing
/// file still has a meaning); `None` if it climbs above its start.
fn lexically_normal(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// `cargo xtask` command lines in a Markdown file (code blocks and code spans alike) that
/// name a task the xtask lacks, or a flag that the task refuses. A line may list several
/// tasks as alternatives (`cargo xtask perft [--full] | bench [--check]`); text after a `#`
/// comment or a closing backtick is prose and is not read.
fn check_xtask_commands(file: &Path, markdown: &str) -> Vec<String> {
    let tasks = crate::help_tasks();
    let mut errors = Vec::new();
    for (number, line) in markdown.lines().enumerate() {
        for (_, after) in line.match_indices("cargo xtask ").map(|(at, m)| line.split_at(at + m.len())) {
            let command = after.split(['`', '#']).next().unwrap_or("");
            let mut words =
                command.split_whitespace().map(|w| w.trim_matches(['[', ']', '(', ')', ',', '.', ';', ':']));
            let Some(mut task) = words.next().filter(|t| t.starts_with(|c: char| c.is_ascii_lowercase())) else {
                continue; // `cargo xtask ...`, `cargo xtask <task>`
            };
            let mut after_bar = false;
            let mut known = true;
            for word in std::iter::once(task).chain(words) {
                if word == "|" {
                    after_bar = true;
                    continue;
                }
                if std::mem::take(&mut after_bar) && tasks.contains(&word) {
                    task = word;
                }
                if word == task {
                    known = tasks.contains(&task);
                    if !known {
                        errors.push(format!(
                            "{}:{}: `cargo xtask {task}`: there is no such task (cargo xtask --help lists {tasks:?})",
                            file.display(),
                            number + 1
                        ));
                    }
                    continue;
                }
                let flag = word.trim_end_matches("...");
                if !known || !flag.starts_with("--") {
                    continue;
                }
                if let Some((switches, options)) = crate::task_flags(task) {
                    if !switches.contains(&flag) && !options.contains(&flag) {
                        errors.push(format!(
                            "{}:{}: `cargo xtask {task}` shows {flag}, which the task refuses; fix the \
                             documentation or teach task_flags (xtask/src/main.rs) the flag",
                            file.display(),
                            number + 1
                        ));
                    }
                }
            }
        }
    }
    errors
}

/// Files (relative to `root`) whose bytes mention the outside path.
fn check_no_outside_path(files: &[(PathBuf, Vec<u8>)]) -> Vec<String> {
    let needle = outside_path();
    files
        .iter()
        .filter(|(_, bytes)| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
        .map(|(path, _)| {
            format!(
                "{}: mentions {needle:?}, a directory outside the repository; a clean clone must be \
                 self-contained, so copy what is needed into the repository (data/, the README)",
                path.display()
            )
        })
        .collect()
}

/// Every file of the repository, relative to `root`, except build output, version control
/// and the fuzzer's generated corpora (all ignored by .gitignore).
fn repository_files(root: &Path) -> Vec<PathBuf> {
    const SKIP: &[&str] = &["target", ".git", "fuzz/corpus", "fuzz/artifacts"];
    let mut files = Vec::new();
    let mut dirs = vec![PathBuf::new()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(root.join(&dir)).unwrap_or_else(|e| panic!("reading {dir:?}: {e}"));
        for entry in entries {
            let entry = entry.expect("reading a directory entry");
            let relative = dir.join(entry.file_name());
            let skip = SKIP.iter().any(|s| relative == Path::new(s) || entry.file_name() == *s);
            if skip {
                continue;
            }
            if entry.file_type().expect("a file type").is_dir() {
                dirs.push(relative);
            } else {
                files.push(relative);
            }
        }
    }
    files.sort();
    files
}

fn report(check: &str, errors: &[String]) {
    assert!(errors.is_empty(), "{check}: {} problem(s)\n  {}\n", errors.len(), errors.join("\n  "));
}

#[test]
fn repository_dependency_direction() {
    report("dependency direction", &check_dependency_direction(&metadata(), ALLOWED_EDGES));
}

#[test]
fn repository_gpl_crates_are_dev_only() {
    report("GPL licences", &check_gpl_only_in_dev(&metadata()));
}

#[test]
fn repository_module_docs() {
    let meta = metadata();
    let mut sources = Vec::new();
    let mut roots = BTreeSet::new();
    for package in workspace_packages(&meta) {
        let manifest = PathBuf::from(str_field(package, "manifest_path"));
        let src = manifest.parent().expect("a manifest has a directory").join("src");
        let mut dirs = vec![src];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("Rust source is UTF-8");
                    sources.push((path, text));
                }
            }
        }
        for target in package["targets"].as_array().into_iter().flatten() {
            // Every target's root: libraries, binaries, tests, benches, examples, build scripts.
            let path = PathBuf::from(str_field(target, "src_path"));
            if !sources.iter().any(|(p, _)| *p == path) {
                let text = std::fs::read_to_string(&path).expect("Rust source is UTF-8");
                sources.push((path.clone(), text));
            }
            roots.insert(path);
        }
    }
    assert!(sources.len() > 50, "found only {} source files: the walk is broken", sources.len());
    let root = workspace_root();
    let relative = |p: &Path| p.strip_prefix(&root).unwrap_or(p).to_path_buf();
    let sources: Vec<_> = sources.into_iter().map(|(p, text)| (relative(&p), text)).collect();
    let roots = roots.iter().map(|p| relative(p)).collect();
    report("module documentation", &check_module_docs(&sources, &roots));
}

#[test]
fn repository_markdown_links() {
    let root = workspace_root();
    let mut errors = Vec::new();
    let files = repository_files(&root);
    let markdown: Vec<_> = files.iter().filter(|f| f.extension().is_some_and(|e| e == "md")).collect();
    assert!(markdown.iter().any(|f| *f == Path::new("README.md")), "the walk missed README.md");
    for file in markdown {
        let text = std::fs::read_to_string(root.join(file)).expect("Markdown is UTF-8");
        errors.extend(check_markdown_links(&root, file, &text));
    }
    report("Markdown links", &errors);
}

#[test]
fn repository_xtask_commands_exist() {
    let root = workspace_root();
    let mut errors = Vec::new();
    let mut seen = 0;
    for file in repository_files(&root).iter().filter(|f| f.extension().is_some_and(|e| e == "md")) {
        let text = std::fs::read_to_string(root.join(file)).expect("Markdown is UTF-8");
        seen += text.matches("cargo xtask ").count();
        errors.extend(check_xtask_commands(file, &text));
    }
    assert!(seen > 20, "found only {seen} `cargo xtask` commands in the Markdown files: the walk is broken");
    report("cargo xtask commands in the documentation", &errors);
}

#[test]
fn repository_is_self_contained() {
    let root = workspace_root();
    let files: Vec<_> = repository_files(&root)
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(root.join(&f)).expect("reading a repository file");
            (f, bytes)
        })
        .collect();
    assert!(files.iter().any(|(f, _)| f == Path::new("Cargo.toml")), "the walk missed Cargo.toml");
    report("self-containment", &check_no_outside_path(&files));
}

/// A synthetic package: name, licence, dependencies as (name, kind).
type SyntheticPackage<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// A `cargo metadata` document with `packages`, all in the workspace except those named in
/// `registry`.
fn synthetic_metadata(packages: &[SyntheticPackage], registry: &[&str]) -> Value {
    let id = |name: &str| format!("{name} 0.1.0");
    let kind = |k: &str| if k == "normal" { Value::Null } else { Value::from(k) };
    let package_list: Vec<Value> = packages
        .iter()
        .map(|(name, license, deps)| {
            serde_json::json!({
                "id": id(name), "name": name, "license": license,
                "manifest_path": format!("/repo/{name}/Cargo.toml"),
                "dependencies": deps.iter().map(|(d, k)| serde_json::json!({"name": d, "kind": kind(k)})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let nodes: Vec<Value> = packages
        .iter()
        .map(|(name, _, deps)| {
            serde_json::json!({
                "id": id(name),
                "deps": deps.iter().map(|(d, k)| serde_json::json!({
                    "name": d, "pkg": id(d), "dep_kinds": [{"kind": kind(k), "target": null}],
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let members: Vec<String> = packages.iter().map(|p| p.0).filter(|n| !registry.contains(n)).map(id).collect();
    serde_json::json!({"packages": package_list, "workspace_members": members, "resolve": {"nodes": nodes}})
}

#[test]
fn dependency_direction_reports_upward_edges_of_every_kind() {
    let meta = synthetic_metadata(
        &[
            ("tempo-core", "MIT", &[("tempo-notation", "dev")]),
            ("tempo-notation", "MIT", &[("tempo-core", "normal")]),
            ("tempo-engine", "MIT", &[("tempo-core", "normal"), ("tempo-notation", "normal")]),
            ("tempo-new", "MIT", &[]),
        ],
        &[],
    );
    let errors = check_dependency_direction(&meta, ALLOWED_EDGES);
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(errors[0].contains("/repo/tempo-core/Cargo.toml: tempo-core has a dev dependency on tempo-notation"));
    assert!(errors[1].contains("tempo-engine has a normal dependency on tempo-notation"));
    assert!(errors[2].contains("tempo-new has no row in ALLOWED_EDGES"));
}

#[test]
fn gpl_check_follows_normal_and_build_edges_but_not_dev_edges() {
    let meta = synthetic_metadata(
        &[
            ("tempo-core", "MIT OR Apache-2.0", &[("shakmaty", "dev"), ("helper", "build")]),
            ("tempo-notation", "MIT OR Apache-2.0", &[("dual", "normal")]),
            ("helper", "MIT", &[("copyleft", "normal")]),
            ("copyleft", "LGPL-3.0-only", &[]),
            ("dual", "MIT OR LGPL-2.1-or-later", &[]),
            ("shakmaty", "GPL-3.0+", &[]),
        ],
        &["helper", "copyleft", "dual", "shakmaty"],
    );
    let errors = check_gpl_only_in_dev(&meta);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].starts_with("/repo/tempo-core/Cargo.toml: copyleft"), "{}", errors[0]);
    assert!(errors[0].contains("tempo-core -> helper -> copyleft"), "{}", errors[0]);

    let shipped =
        synthetic_metadata(&[("tempo-core", "MIT", &[("shakmaty", "normal")]), ("shakmaty", "", &[])], &["shakmaty"]);
    let errors = check_gpl_only_in_dev(&shipped);
    assert_eq!(errors.len(), 1, "a known GPL crate is caught even without a licence field: {errors:#?}");
}

#[test]
fn gpl_only_licence_expressions() {
    assert!(is_gpl_only("GPL-3.0+"));
    assert!(is_gpl_only("GPL-3.0-or-later OR AGPL-3.0"));
    assert!(is_gpl_only("MIT AND GPL-2.0"));
    assert!(!is_gpl_only("MIT OR Apache-2.0 OR LGPL-2.1-or-later"));
    assert!(!is_gpl_only("MIT/GPL-2.0"));
    assert!(!is_gpl_only("Apache-2.0"));
}

#[test]
fn module_docs_are_required_except_in_included_fragments() {
    let file = |path: &str, text: &str| (PathBuf::from(path), text.to_owned());
    let sources = vec![
        file("core/src/lib.rs", "//! The rules.\nmod zobrist;\n"),
        file("core/src/zobrist.rs", "//! Keys.\ninclude!(\"keys.rs\");\n"),
        file("core/src/keys.rs", "// Generated.\nconst K: u64 = 1;\n"),
        file("core/src/fen.rs", "\n/// Parses.\npub fn parse() {}\n"),
        file("core/src/main.rs", "include!(\"lib.rs\");\nfn main() {}\n"),
        file("core/src/lib_included.rs", "// no docs\n"),
    ];
    let roots = BTreeSet::from([PathBuf::from("core/src/lib.rs"), PathBuf::from("core/src/main.rs")]);
    let errors = check_module_docs(&sources, &roots);
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(errors[0].starts_with("core/src/fen.rs: no module documentation"));
    assert!(errors[1].starts_with("core/src/main.rs"), "a crate root needs docs even if included");
    assert!(errors[2].starts_with("core/src/lib_included.rs"));
}

#[test]
fn markdown_links_are_found_outside_code() {
    let text = "See [a](docs/a.md#part \"title\") and [b](<b c.md>).\n\
                `[not](code.md)` and [url](https://example.com) [anchor](#here)\n\
                ```\n[also](not.md)\n```\n[ref]: ref.md\n";
    assert_eq!(markdown_links(text), ["docs/a.md#part", "b c.md", "https://example.com", "#here", "ref.md"]);
}

#[test]
fn broken_and_escaping_markdown_links_are_reported() {
    let root = workspace_root();
    let text = "[ok](../ARCHITECTURE.md) [root](/README.md#set-up) [web](https://x.org/y.md) \
                [gone](missing/file.md) [out](../../elsewhere/file.md)\n";
    let errors = check_markdown_links(&root, Path::new("xtask/NOTES.md"), text);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].starts_with("xtask/NOTES.md: the link \"missing/file.md\"") && errors[0].contains("does not exist")
    );
    assert!(errors[1].contains("\"../../elsewhere/file.md\" leads outside the repository"));
}

#[test]
fn unknown_xtask_tasks_and_flags_are_reported() {
    let text = "cargo xtask perft --full --max-nodes N   # --not-read\n\
                `cargo xtask perft [--full] | bench [--check] | benches --anything | fuzz [--secs N]`\n\
                cargo xtask nnue --gen 8 --inputs king-buckets4 --init NET ...\n\
                (`cargo xtask ...`) and `cargo xtask <task>` are placeholders\n\
                cargo xtask perft --ful\n\
                cargo xtask bench [--full] | ci\n\
                `cargo xtask chart`, cargo xtask lint --fix\n";
    let errors = check_xtask_commands(Path::new("docs/x.md"), text);
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(
        errors[0].starts_with("docs/x.md:5: `cargo xtask perft` shows --ful, which the task refuses"),
        "{}",
        errors[0]
    );
    assert!(errors[1].starts_with("docs/x.md:6: `cargo xtask bench` shows --full"), "{}", errors[1]);
    assert!(errors[2].starts_with("docs/x.md:7: `cargo xtask lint`: there is no such task"), "{}", errors[2]);
}

#[test]
fn outside_path_mentions_are_reported() {
    let files = vec![
        (PathBuf::from("README.md"), b"self-contained".to_vec()),
        (PathBuf::from(".ci/run"), format!("cp {}/data .", outside_path()).into_bytes()),
    ];
    let errors = check_no_outside_path(&files);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].starts_with(".ci/run: mentions"));
}

#[test]
fn ci_script_delegates_to_xtask_ci() {
    let script = std::fs::read_to_string(workspace_root().join(".ci/run")).expect("reading .ci/run");
    let commands: Vec<&str> = script.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    assert!(
        commands.iter().any(|l| l.trim_start_matches("exec ") == "cargo xtask ci"),
        ".ci/run: no longer runs `cargo xtask ci`; CI's steps belong in CI_STEPS (xtask/src/main.rs), \
         so that the script and `cargo xtask ci` cannot drift apart"
    );
    let cargo_calls: Vec<_> =
        commands.iter().filter(|l| l.contains("cargo ") && !l.contains("cargo xtask ci")).collect();
    assert!(
        cargo_calls.is_empty(),
        ".ci/run: runs {cargo_calls:?} itself; move such steps into CI_STEPS (xtask/src/main.rs)"
    );
}

#[test]
fn readme_test_command_is_a_ci_step() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).expect("reading README.md");
    let command = readme
        .lines()
        .skip_while(|l| l.trim() != "# All tests.")
        .nth(1)
        .expect("README.md: the set-up block has no `# All tests.` line followed by the test command");
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    assert!(
        crate::CI_STEPS.iter().any(|step| step.args == args.as_slice()),
        "README.md: the test command {command:?} is not one of CI_STEPS (xtask/src/main.rs); CI must run \
         the command the README gives"
    );
}

/// The README's picture of the game screen is the screen test's snapshot, so that it shows
/// what `tempo` draws today.
#[test]
fn readme_shows_the_screen_of_the_snapshot_test() {
    let root = workspace_root();
    let snapshot = std::fs::read_to_string(root.join("cli/src/snapshots/tempo__screen__tests__screen_80x24.snap"))
        .expect("reading the 80x24 screen snapshot");
    let screen = snapshot.splitn(3, "---\n").nth(2).expect("an insta snapshot has a header").trim_end();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("reading README.md");
    assert!(
        readme.contains(&format!("```text\n{screen}\n```")),
        "README.md: the screen picture differs from cli/src/snapshots/tempo__screen__tests__screen_80x24.snap; copy it over"
    );
}
