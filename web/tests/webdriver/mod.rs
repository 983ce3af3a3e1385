//! Just enough WebDriver for the browser test: chromedriver started on a free port, one
//! headless Chromium session, commands as JSON over HTTP/1.1 on std's `TcpStream`; and a
//! static file server for the site. Every failure panics with what was asked and answered:
//! this is test code.

use base64::Engine as _;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The W3C WebDriver key of an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A port nobody listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// One HTTP request to `127.0.0.1:port`; the response body as JSON.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Value {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap_or_else(|e| panic!("connecting to {port}: {e}"));
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("sending a WebDriver request");
    // chromedriver keeps the connection open whatever the request says: the body ends where
    // its Content-Length (or its last chunk) says.
    let mut reader = BufReader::new(stream);
    let mut length = None;
    let mut chunked = false;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("reading a WebDriver response");
        let line = line.trim_end().to_ascii_lowercase();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("content-length:") {
            length = value.trim().parse::<usize>().ok();
        }
        chunked |= line.starts_with("transfer-encoding:") && line.contains("chunked");
    }
    let mut payload = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).expect("reading a chunk size");
            let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).expect("reading a chunk");
            if size == 0 {
                break;
            }
            payload.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(length) = length {
        payload.resize(length, 0);
        reader.read_exact(&mut payload).expect("reading a WebDriver response body");
    } else {
        reader.read_to_end(&mut payload).expect("reading a WebDriver response body");
    }
    serde_json::from_slice(&payload)
        .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {}", String::from_utf8_lossy(&payload)))
}

/// chromedriver and one headless Chromium session; both end when this is dropped.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

impl Browser {
    /// Starts `chromedriver` and a headless session of the `chromium` binary.
    pub fn start(chromedriver: &str, chromium: &str) -> Browser {
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {chromedriver}: {e}"));
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(20), "chromedriver did not listen on port {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        let binary = which(chromium);
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": binary,
                "args": ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--window-size=1280,760", "--hide-scrollbars"]
            }
        }}});
        let mut browser = Browser { driver, port, session: String::new() };
        let answer = http(port, "POST", "/session", Some(&capabilities));
        browser.session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no WebDriver session: {answer}"))
            .to_owned();
        browser.command("POST", "timeouts", json!({"script": 300_000, "pageLoad": 60_000}));
        browser
    }

    fn command(&self, method: &str, path: &str, body: Value) -> Value {
        let url = format!("/session/{}/{path}", self.session);
        let answer = http(self.port, method, &url, if method == "GET" { None } else { Some(&body) });
        let value = answer["value"].clone();
        if let Some(error) = value.get("error") {
            panic!("WebDriver {method} {path} {body}: {error}: {}", value["message"]);
        }
        value
    }

    /// Opens `url` and waits for it to load.
    pub fn navigate(&self, url: &str) {
        self.command("POST", "url", json!({ "url": url }));
    }

    /// Clicks the element `css` selects, as a person would (pointer events at its centre).
    pub fn click(&self, css: &str) {
        let element = self.command("POST", "element", json!({"using": "css selector", "value": css}));
        let id = element[ELEMENT].as_str().unwrap_or_else(|| panic!("no element {css}: {element}")).to_owned();
        self.command("POST", &format!("element/{id}/click"), json!({}));
    }

    /// Runs `script` (a function body; `arguments` are `args`) and returns its value.
    pub fn execute(&self, script: &str, args: Value) -> Value {
        self.command("POST", "execute/sync", json!({"script": script, "args": args}))
    }

    /// Runs `script`, which calls its last argument with the result.
    pub fn execute_async(&self, script: &str, args: Value) -> Value {
        self.command("POST", "execute/async", json!({"script": script, "args": args}))
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let data = self.command("GET", "screenshot", Value::Null);
        base64::engine::general_purpose::STANDARD.decode(data.as_str().expect("base64 PNG")).expect("valid base64")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = TcpStream::connect(("127.0.0.1", self.port)).map(|_| {
                http(self.port, "DELETE", &format!("/session/{}", self.session), None);
            });
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// The full path of a program on the PATH (chromedriver wants the binary's path).
fn which(program: &str) -> String {
    if program.contains('/') {
        return program.to_owned();
    }
    std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(program)).find(|p| p.is_file()))
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| program.to_owned())
}

/// The site's files over HTTP on a free port, from a thread of the test.
pub struct StaticServer {
    port: u16,
}

impl StaticServer {
    /// Serves `site` until the test process ends.
    pub fn start(site: PathBuf) -> StaticServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port for the site");
        let port = listener.local_addr().expect("its address").port();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let site = site.clone();
                std::thread::spawn(move || serve(stream, &site));
            }
        });
        StaticServer { port }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

fn serve(stream: TcpStream, site: &Path) {
    let Ok(clone) = stream.try_clone() else { return };
    let mut reader = BufReader::new(clone);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    let mut header = String::new();
    while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
        header.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/").split('?').next().unwrap_or("/").to_owned();
    let relative = Path::new(path.trim_start_matches('/'));
    let file = if path.ends_with('/') { site.join(relative).join("index.html") } else { site.join(relative) };
    let safe = relative.components().all(|c| matches!(c, Component::Normal(_)));
    let (status, body) = match std::fs::read(&file) {
        Ok(body) if safe => ("200 OK", body),
        _ => ("404 Not Found", b"not found".to_vec()),
    };
    let mime = match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    };
    let mut stream = stream;
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(&body));
}
