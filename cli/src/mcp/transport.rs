//! Standard input and output as the server's transport, in front of rmcp: a thread reads
//! lines (never more than `MAX_LINE + 1` bytes of one) and decodes each (`decode`); the
//! messages go to rmcp, and the lines that are not messages are answered here. One
//! writer thread writes every outgoing line, rmcp's answers and these alike, whole.
use std::io::{BufRead, Write};
use std::sync::mpsc as std_mpsc;

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use tokio::sync::{mpsc, oneshot};

use super::decode::{self, Decoded};
use crate::serve::limits::MAX_LINE;

enum Out {
    Line(String),
    /// Answered once every line before it is written.
    Flush(oneshot::Sender<()>),
}

pub struct Stdio {
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    outgoing: std_mpsc::Sender<Out>,
}

/// Starts the reader and the writer on standard input and output.
pub fn stdio() -> Stdio {
    let (to_writer, lines) = std_mpsc::channel::<Out>();
    std::thread::spawn(move || write_lines(std::io::stdout(), lines));
    // A few messages ahead at most: a client sending faster than calls end waits.
    let (to_server, incoming) = mpsc::channel(16);
    let answers = to_writer.clone();
    std::thread::spawn(move || read_lines(std::io::stdin().lock(), MAX_LINE, &to_server, &answers));
    Stdio {
        incoming,
        outgoing: to_writer,
    }
}

fn write_lines(mut out: impl Write, lines: std_mpsc::Receiver<Out>) {
    for message in lines {
        match message {
            Out::Line(line) => {
                let written = out
                    .write_all(line.as_bytes())
                    .and_then(|()| out.write_all(b"\n"))
                    .and_then(|()| out.flush());
                if written.is_err() {
                    // The client is gone: the senders see the channel closed.
                    return;
                }
                crate::serve::signals::written(&line);
            }
            Out::Flush(done) => {
                let _ = done.send(());
            }
        }
    }
}

/// What one bounded read of a line gave.
enum Read {
    Line,
    /// Longer than the limit: `line` holds its first `max + 1` bytes, the rest was
    /// skipped.
    TooLong,
    End,
}

/// Reads one line into `line` (without its line break), keeping at most `max + 1`
/// bytes of it.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> std::io::Result<Read> {
    line.clear();
    let mut too_long = false;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Read::TooLong,
                (false, true) => Read::End,
                // A last line without its line break is still a message.
                (false, false) => Read::Line,
            });
        }
        let newline = available.iter().position(|b| *b == b'\n');
        let content = newline.unwrap_or(available.len());
        if !too_long {
            let room = (max + 1).saturating_sub(line.len());
            line.extend_from_slice(&available[..content.min(room)]);
            too_long = line.len() > max;
        }
        let consumed = newline.map_or(content, |n| n + 1);
        input.consume(consumed);
        if newline.is_some() {
            return Ok(if too_long { Read::TooLong } else { Read::Line });
        }
    }
}

fn read_lines(
    mut input: impl BufRead,
    max: usize,
    server: &mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    answers: &std_mpsc::Sender<Out>,
) {
    let mut line = Vec::new();
    loop {
        let decoded = match read_line(&mut input, &mut line, max) {
            Ok(Read::Line) => decode::line(&line),
            Ok(Read::TooLong) => Decoded::Answer(decode::too_long(&line)),
            // End of input, or it cannot be read: the client is gone.
            Ok(Read::End) | Err(_) => return,
        };
        // The buffer of a long line is not kept for the next.
        if line.capacity() > 1 << 20 {
            line = Vec::new();
        }
        let sent = match decoded {
            Decoded::Message(message) => server.blocking_send(*message).is_ok(),
            Decoded::Answer(text) => answers.send(Out::Line(text)).is_ok(),
            Decoded::Nothing => true,
        };
        if !sent {
            return;
        }
    }
}

fn closed() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::BrokenPipe, "standard output is closed")
}

impl Transport<RoleServer> for Stdio {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let sent = serde_json::to_string(&item)
            .map_err(std::io::Error::other)
            .and_then(|line| self.outgoing.send(Out::Line(line)).map_err(|_| closed()));
        std::future::ready(sent)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let (done, written) = oneshot::channel();
        self.outgoing.send(Out::Flush(done)).map_err(|_| closed())?;
        written.await.map_err(|_| closed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<(String, Vec<u8>)> {
        let mut input = std::io::Cursor::new(input.to_vec());
        let mut line = Vec::new();
        let mut got = Vec::new();
        loop {
            let kind = match read_line(&mut input, &mut line, max).unwrap() {
                Read::Line => "line",
                Read::TooLong => "long",
                Read::End => return got,
            };
            got.push((kind.to_string(), line.clone()));
        }
    }

    #[test]
    fn long_lines_are_cut_at_the_limit_and_skipped() {
        let got = lines(b"abc\n12345678\nxy\n123456\nlast", 5);
        let want: Vec<(String, Vec<u8>)> = vec![
            ("line".into(), b"abc".to_vec()),
            ("long".into(), b"123456".to_vec()),
            ("line".into(), b"xy".to_vec()),
            ("long".into(), b"123456".to_vec()),
            ("line".into(), b"last".to_vec()),
        ];
        assert_eq!(got, want);
        // Exactly the limit is a line; one more byte is not.
        assert_eq!(
            lines(b"12345\n", 5),
            vec![("line".into(), b"12345".to_vec())]
        );
        assert_eq!(
            lines(b"123456", 5),
            vec![("long".into(), b"123456".to_vec())]
        );
        // Through a reader that gives a few bytes at a time.
        let slow = std::io::BufReader::with_capacity(3, &b"1234567890\nok\n"[..]);
        let mut line = Vec::new();
        let mut slow = slow;
        assert!(matches!(
            read_line(&mut slow, &mut line, 4).unwrap(),
            Read::TooLong
        ));
        assert_eq!(line, b"12345");
        assert!(matches!(
            read_line(&mut slow, &mut line, 4).unwrap(),
            Read::Line
        ));
        assert_eq!(line, b"ok");
    }
}
