//! Helpers shared by the protocol tests: a server writing into a buffer the test can read.

#![allow(dead_code)]

use std::io::Write;
use std::sync::{Arc, Mutex};
use tempo_uci::Server;

/// A cloneable in-memory output.
#[derive(Clone, Default)]
pub struct Buffer(pub Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }

    pub fn take(&self) -> String {
        let mut v = self.0.lock().unwrap();
        let text = String::from_utf8(v.clone()).unwrap();
        v.clear();
        text
    }
}

pub fn server() -> (Server<Buffer>, Buffer) {
    let buffer = Buffer::default();
    (Server::new(buffer.clone()), buffer)
}

/// Runs the lines, waiting for every `go` to finish before the next line.
pub fn transcript(lines: &[&str]) -> String {
    let (mut server, buffer) = server();
    for line in lines {
        server.handle_line(line);
        if line.starts_with("go") {
            server.wait();
        }
    }
    server.finish();
    buffer.text()
}

/// Blanks the parts of info lines that depend on the machine's speed.
pub fn redact(text: &str) -> String {
    text.lines()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            let mut out = Vec::with_capacity(words.len());
            let mut i = 0;
            while i < words.len() {
                out.push(words[i].to_owned());
                if matches!(words[i], "nps" | "time") && line.starts_with("info") && i + 1 < words.len() {
                    out.push("*".to_owned());
                    i += 1;
                }
                i += 1;
            }
            out.join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `bestmove` lines of a transcript.
pub fn bestmoves(text: &str) -> Vec<String> {
    text.lines().filter(|l| l.starts_with("bestmove")).map(str::to_owned).collect()
}
