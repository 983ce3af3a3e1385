//! `cargo xtask web [--serve] [--port N]`: Tempo in the browser. Builds `tempo-web` for
//! wasm32-unknown-unknown twice (with `simd128` and without: the page picks by feature
//! detection), runs the `wasm-bindgen` CLI at the `wasm-bindgen` crate's exact version
//! (installing it when missing), copies the static files of `web/www/` beside them into
//! `target/web/`, and reports the sizes raw and gzip-compressed. `--serve` then serves that
//! folder on localhost with a small static server (std only).

use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use crate::{cargo, root, run, target_dir};

const TARGET: &str = "wasm32-unknown-unknown";
/// The WebAssembly stack, in linear memory: the search recurses with a move list per ply
/// (native search threads get `SEARCH_STACK_SIZE`, 64 MiB, which is far more than it uses).
const STACK_BYTES: u32 = 16 * 1024 * 1024;
/// The two builds: folder name and extra `rustflags`.
const VARIANTS: [(&str, &str); 2] = [("simd", "-C target-feature=+simd128"), ("scalar", "")];

/// The site's folder.
pub fn site_dir() -> PathBuf {
    target_dir().join("web")
}

/// Builds the site into [`site_dir`] and prints the sizes.
pub fn build() -> Result<()> {
    ensure_target()?;
    let bindgen = ensure_bindgen()?;
    let site = site_dir();
    std::fs::create_dir_all(&site).with_context(|| format!("cannot create {}", site.display()))?;
    for (variant, flags) in VARIANTS {
        let build_dir = target_dir().join("web-build").join(variant);
        let rustflags = format!("-C link-arg=-zstack-size={STACK_BYTES} {flags}");
        run(cargo()
            .args(["build", "--release", "--target", TARGET, "-p", "tempo-web", "--lib", "--target-dir"])
            .arg(&build_dir)
            .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS", rustflags.trim()))?;
        let wasm = build_dir.join(TARGET).join("release").join("tempo_web.wasm");
        run(Command::new(&bindgen)
            .args(["--target", "web", "--no-typescript", "--out-dir"])
            .arg(site.join(variant))
            .arg(&wasm))?;
    }
    let www = root().join("web").join("www");
    for entry in std::fs::read_dir(&www).with_context(|| format!("cannot list {}", www.display()))? {
        let path = entry?.path();
        if path.is_file() {
            let to = site.join(path.file_name().context("a file has a name")?);
            std::fs::copy(&path, &to).with_context(|| format!("cannot copy {} to {}", path.display(), to.display()))?;
        }
    }
    report_sizes(&site)?;
    eprintln!("site built in {} (serve it with `cargo xtask web --serve`)", site.display());
    Ok(())
}

/// Raw and gzip sizes of the WebAssembly and JavaScript the page loads, per build.
fn report_sizes(site: &Path) -> Result<()> {
    let statics: Vec<PathBuf> =
        ["index.html", "app.js", "engine.js", "worker.js", "style.css"].iter().map(|f| site.join(f)).collect();
    let page_raw: u64 = statics.iter().map(|f| file_len(f)).sum::<Result<u64>>()?;
    let page_gz: u64 = statics.iter().map(|f| gzip_len(f)).sum::<Result<u64>>()?;
    println!("page (html, js, css): {page_raw} bytes, {page_gz} gzip");
    for (variant, _) in VARIANTS {
        let wasm = site.join(variant).join("tempo_web_bg.wasm");
        let glue = site.join(variant).join("tempo_web.js");
        let (raw, gz) = (file_len(&wasm)? + file_len(&glue)?, gzip_len(&wasm)? + gzip_len(&glue)?);
        println!(
            "{variant:>6}: tempo_web_bg.wasm {} bytes ({} gzip), with its JS glue and the page {} bytes, {} gzip",
            file_len(&wasm)?,
            gzip_len(&wasm)?,
            raw + page_raw,
            gz + page_gz
        );
    }
    Ok(())
}

fn file_len(path: &Path) -> Result<u64> {
    Ok(std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?.len())
}

/// The size of `gzip -9` of a file (the `gzip` program: the xtask has no compression crate).
fn gzip_len(path: &Path) -> Result<u64> {
    let out = Command::new("gzip").args(["-9", "-c"]).arg(path).output().context("running gzip")?;
    if !out.status.success() {
        bail!("gzip failed on {}", path.display());
    }
    Ok(out.stdout.len() as u64)
}

/// Adds the wasm32 target through rustup when the toolchain lacks it.
fn ensure_target() -> Result<()> {
    let out = Command::new("rustc").args(["--print", "target-libdir", "--target", TARGET]).output();
    let installed =
        out.is_ok_and(|o| o.status.success() && Path::new(String::from_utf8_lossy(&o.stdout).trim()).is_dir());
    if !installed {
        run(Command::new("rustup").args(["target", "add", TARGET]))
            .context("the wasm32-unknown-unknown target is missing and rustup could not add it")?;
    }
    Ok(())
}

/// The `wasm-bindgen` crate's version in Cargo.lock: the CLI must be exactly this one.
pub fn bindgen_version() -> Result<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).context("cannot read Cargo.lock")?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            if let Some(version) = lines.next().and_then(|l| l.strip_prefix("version = \"")) {
                return Ok(version.trim_end_matches('"').to_owned());
            }
        }
    }
    bail!("Cargo.lock names no wasm-bindgen package")
}

/// A `wasm-bindgen` CLI of the crate's version: on the PATH, in the xtask's own install
/// folder, or installed there now with `cargo install` (minutes, once).
pub fn ensure_bindgen() -> Result<PathBuf> {
    let version = bindgen_version()?;
    let local_root = target_dir().join("wasm-bindgen-cli").join(&version);
    let local = local_root.join("bin").join(format!("wasm-bindgen{}", std::env::consts::EXE_SUFFIX));
    for candidate in [PathBuf::from("wasm-bindgen"), local.clone()] {
        if let Ok(out) = Command::new(&candidate).arg("--version").output() {
            if String::from_utf8_lossy(&out.stdout).split_whitespace().nth(1) == Some(version.as_str()) {
                return Ok(candidate);
            }
        }
    }
    eprintln!("installing wasm-bindgen-cli {version} into {} (once; a few minutes)", local_root.display());
    // Not `--locked`: the CLI's lock file can name a release that a registry mirror lacks.
    run(cargo().args(["install", "wasm-bindgen-cli", "--version", &version, "--root"]).arg(&local_root))?;
    Ok(local)
}

/// Serves [`site_dir`] on `127.0.0.1:port` until interrupted.
pub fn serve(port: u16) -> Result<()> {
    let site = site_dir();
    if !site.join("index.html").is_file() {
        bail!("{} holds no site: run `cargo xtask web` first", site.display());
    }
    let listener = TcpListener::bind(("127.0.0.1", port)).with_context(|| format!("cannot listen on port {port}"))?;
    println!("serving {} at http://127.0.0.1:{port}/ (Ctrl-C to stop)", site.display());
    for stream in listener.incoming().flatten() {
        let site = site.clone();
        std::thread::spawn(move || {
            if let Err(e) = answer(stream, &site) {
                eprintln!("request failed: {e:#}");
            }
        });
    }
    Ok(())
}

/// The MIME type of a site file; browsers compile WebAssembly by streaming only when it is
/// served as `application/wasm`, and load JavaScript modules only with a JavaScript type.
pub fn mime_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("pgn") => "application/x-chess-pgn",
        _ => "application/octet-stream",
    }
}

/// One HTTP/1.1 request: `GET` of a file under `site` (no `..`), or 404.
fn answer(stream: TcpStream, site: &Path) -> Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // The headers are read and ignored.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut stream = stream;
    let target = request.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let relative = Path::new(path.trim_start_matches('/'));
    let safe = relative.components().all(|c| matches!(c, Component::Normal(_)));
    let file = if path.ends_with('/') { site.join(relative).join("index.html") } else { site.join(relative) };
    match (request.starts_with("GET "), safe, std::fs::read(&file)) {
        (true, true, Ok(body)) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
                mime_type(&file),
                body.len()
            );
            stream.write_all(head.as_bytes())?;
            stream.write_all(&body)?;
        }
        _ => {
            let body = b"not found\n";
            let head = format!(
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            stream.write_all(head.as_bytes())?;
            stream.write_all(body)?;
        }
    }
    Ok(())
}
