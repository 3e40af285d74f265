//! A raw JSON-RPC client of `recall mcp`: lines written as given, every line the server
//! writes parsed and kept, so that a test sees exactly what a client would.
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::cli::TempLib;

/// How long a test waits for an answer before it calls the server hung: a bound on a
/// failure, not a measure of speed.
pub const HUNG: Duration = Duration::from_secs(60);

pub struct Server {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    /// Answers read while waiting for another.
    pending: Vec<Value>,
    /// The id of the next `tool` call: far from the ids tests choose themselves.
    next: i64,
}

impl Server {
    /// `recall --db LIB mcp ARGS`, initialized.
    pub fn start(lib: &TempLib, args: &[&str]) -> Server {
        Server::start_with(lib.command().arg("mcp").args(args))
    }

    pub fn start_with(command: &mut Command) -> Server {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start recall mcp");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                let value = serde_json::from_str(&line).unwrap_or_else(|e| {
                    panic!("the server wrote a line that is not JSON ({e}): {line}")
                });
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut server = Server {
            child,
            stdin,
            lines,
            pending: Vec::new(),
            next: 1_000_000,
        };
        server.send(
            &json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}}),
        );
        let init = server.answer(&json!("init"));
        assert!(init.get("result").is_some(), "{init}");
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    pub fn send(&mut self, message: &Value) {
        self.send_raw(message.to_string().as_bytes());
    }

    /// Writes the bytes and a line break.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the server");
        stdin.write_all(b"\n").expect("write to the server");
        stdin.flush().expect("flush");
    }

    pub fn stdin(&mut self) -> &mut ChildStdin {
        self.stdin.as_mut().expect("stdin open")
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Sends a tools/call with this id.
    pub fn call(&mut self, id: i64, tool: &str, arguments: Value) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}));
    }

    /// The answer to request `id` (a result or an error), waiting for it.
    pub fn answer(&mut self, id: &Value) -> Value {
        let deadline = Instant::now() + HUNG;
        loop {
            if let Some(i) = self.pending.iter().position(|m| &m["id"] == id) {
                return self.pending.remove(i);
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(message) => self.pending.push(message),
                Err(_) => panic!("no answer to request {id} (got {:?})", self.pending),
            }
        }
    }

    /// A tool call answered: Ok(its structured answer) or Err(the tool error's text).
    pub fn tool(&mut self, tool: &str, arguments: Value) -> Result<Value, String> {
        let id = self.next;
        self.next += 1;
        self.call(id, tool, arguments);
        let answer = self.answer(&json!(id));
        let result = &answer["result"];
        if result["isError"] == json!(true) {
            Err(result["content"][0]["text"]
                .as_str()
                .unwrap_or_else(|| panic!("no text in {answer}"))
                .to_string())
        } else {
            Ok(result["structuredContent"].clone())
        }
    }

    /// A tool's structured answer, which must not be an error.
    pub fn result(&mut self, id: i64) -> Value {
        let answer = self.answer(&json!(id));
        let result = &answer["result"];
        assert_eq!(result["isError"], json!(false), "{answer}");
        result["structuredContent"].clone()
    }

    /// A tool error's text.
    pub fn tool_error(&mut self, id: i64) -> String {
        let answer = self.answer(&json!(id));
        assert_eq!(answer["result"]["isError"], json!(true), "{answer}");
        answer["result"]["content"][0]["text"]
            .as_str()
            .expect("text")
            .to_string()
    }

    /// A JSON-RPC error: its code and message.
    pub fn error(&mut self, id: &Value) -> (i64, String) {
        let answer = self.answer(id);
        let error = &answer["error"];
        let code = error["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error: {answer}"));
        (
            code,
            error["message"].as_str().expect("message").to_string(),
        )
    }

    /// Every line written so far that answers no request of the test, plus what comes
    /// within `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<Value> {
        while let Ok(message) = self.lines.recv_timeout(wait) {
            self.pending.push(message);
        }
        std::mem::take(&mut self.pending)
    }

    /// Closes standard input and waits for the exit: (code, stderr).
    pub fn finish(mut self) -> (i32, String) {
        self.close_stdin();
        self.wait()
    }

    /// Waits for the exit (killing a server hung past `HUNG`): (exit code, -1 when a
    /// signal killed it; stderr).
    pub fn wait(&mut self) -> (i32, String) {
        let deadline = Instant::now() + HUNG;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not exit");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut stderr = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut stderr);
        }
        // Killed by a signal: -1, never taken for an exit code.
        (status.code().unwrap_or(-1), stderr)
    }
}

impl Server {
    /// Sends `signal` to the server.
    pub fn signal(&self, signal: i32) {
        let pid = i32::try_from(self.child.id()).expect("pid");
        // SAFETY: the pid is our unreaped child's.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "kill");
    }

    /// Waits until the server (started with `RECALL_TEST_PAUSE_AT`) announces its pause
    /// point on stderr; what it wrote before is kept for `wait`.
    pub fn paused(&mut self) -> String {
        use std::io::Read;
        let mut stderr = self.child.stderr.take().expect("stderr is piped");
        let mut seen = String::new();
        let mut byte = [0u8; 1];
        while !seen.contains("recall: paused at ") || !seen.ends_with('\n') {
            let n = stderr.read(&mut byte).expect("read stderr");
            assert!(n > 0, "the server ended before its pause point: {seen}");
            seen.push(char::from(byte[0]));
        }
        self.child.stderr = Some(stderr);
        seen
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
