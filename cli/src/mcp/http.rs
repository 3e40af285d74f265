//! `recall mcp --http ADDR`: the same server over MCP's streamable HTTP transport, as
//! `rmcp` implements it (the official SDKs' clients speak it), at the path `/mcp`. Every
//! request first shows a bearer token (`grants`); its grant rides with the request into
//! each call. Stateless: each POST is answered on its own (JSON), so many clients share
//! one server, and a client that goes away mid-call cancels that call (its helpers are
//! killed, as on stdio).
//!
//! Before rmcp sees a request, the server checks what it can without it: the connection's
//! place under the caps (`serve::limits`), the headers (`serve::headers`: one `Host`, a
//! loopback one unless `--public`, an allowed `Origin`), the token, then the body, read within time and
//! size bounds (a read-only token's small, a writer's as long as a stdio line), and
//! decoded as the stdio server decodes a line: a body that is not a JSON-RPC message is
//! answered with the stdio server's JSON-RPC error (-32700 for text that is not JSON),
//! with HTTP 400.
use std::convert::Infallible;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;

use bytes::Bytes;
use http::{header, HeaderValue, Request, Response, StatusCode};
use http_body_util::{combinators::BoxBody, BodyExt, Full};
use hyper::body::Incoming;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::calls;
use super::decode::{self, Decoded};
use super::grants::{Grant, Tokens};
use super::server::Server;
use crate::error::{err, Result};
use crate::serve::headers::{self, Origin, Policy};
use crate::serve::limits::{
    self, Budget, Timeouts, Trust, Unread, MAX_LINE, MAX_READ_BODY, MAX_WRITE_BODY,
};

/// Where the endpoint is.
pub const PATH: &str = "/mcp";
/// The port of an address given without one.
const DEFAULT_PORT: u16 = 8848;

type Body = BoxBody<Bytes, Infallible>;

/// The address to bind: `PORT`, `HOST:PORT` or `HOST`; loopback unless `public`.
pub fn address(given: &str, public: bool) -> Result<SocketAddr> {
    let with_port = if given.parse::<u16>().is_ok() {
        format!("127.0.0.1:{given}")
    } else if given.parse::<std::net::IpAddr>().is_ok() && given.contains(':') {
        format!("[{given}]:{DEFAULT_PORT}")
    } else if !given.contains(':') {
        format!("{given}:{DEFAULT_PORT}")
    } else {
        given.to_string()
    };
    let addr = with_port
        .to_socket_addrs()
        .map_err(|e| {
            err!("--http {given}: not an address to listen on ({e}); give PORT or HOST:PORT")
        })?
        .next()
        .ok_or_else(|| err!("--http {given}: the name has no address; give PORT or HOST:PORT"))?;
    if !addr.ip().is_loopback() && !public {
        return Err(err!(
            "--http {given} is not a loopback address ({}): other machines could reach it; add \
             --public to mean it (and put TLS in front, docs/team.md), or give 127.0.0.1:PORT",
            addr.ip()
        ));
    }
    Ok(addr)
}

/// The origins of `--allow-origin`, each `SCHEME://HOST[:PORT]`.
pub fn origins(given: &[String]) -> Result<Vec<Origin>> {
    given
        .iter()
        .map(|text| {
            Origin::parse(text).ok_or_else(|| {
                err!(
                    "--allow-origin {text}: not an origin; give it as a browser sends it, \
                     http:// or https://, the host and its port if not the scheme's \
                     (https://app.example.com, http://localhost:6274), without a path"
                )
            })
        })
        .collect()
}

/// Serves until the process is stopped.
pub async fn run(
    server: Server,
    tokens: Tokens,
    addr: SocketAddr,
    public: bool,
    origins: Vec<Origin>,
) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| err!("cannot listen on {addr}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| err!("cannot listen on {addr}: {e}"))?;
    // The Host and Origin are checked here (`headers`), before the body is read.
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_max_request_body_bytes(MAX_LINE)
        .disable_allowed_hosts()
        .disable_allowed_origins();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    let timeouts = Timeouts::get();
    let gate = Arc::new(Gate {
        tokens,
        service,
        policy: Policy {
            public,
            bound,
            origins,
        },
        budget: Budget::new(),
        timeouts,
    });
    eprintln!("recall mcp: serving on http://{bound}{PATH}");
    let log = limits::Log {
        refused: |peer, reason| calls::refused(503, peer, reason),
        closed: calls::closed,
    };
    limits::run(listener, timeouts, log, move |peer, trust| {
        let gate = gate.clone();
        hyper::service::service_fn(move |request| {
            let gate = gate.clone();
            let trust = trust.clone();
            async move { Ok::<_, Infallible>(gate.handle(request, peer, &trust).await) }
        })
    })
    .await;
    Ok(())
}

struct Gate {
    tokens: Tokens,
    service: StreamableHttpService<Server, NeverSessionManager>,
    policy: Policy,
    budget: Budget,
    timeouts: Timeouts,
}

impl Gate {
    async fn handle(
        &self,
        request: Request<Incoming>,
        peer: SocketAddr,
        trust: &Trust,
    ) -> Response<Body> {
        if request.uri().path() != PATH {
            return plain(
                StatusCode::NOT_FOUND,
                &format!("recall: no such path: the MCP endpoint is {PATH}"),
            );
        }
        if let Err(reason) = headers::shape(request.headers()) {
            calls::refused(400, &peer, &reason);
            return closing(plain(StatusCode::BAD_REQUEST, &format!("recall: {reason}")));
        }
        if let Err(reason) = self.policy.check(request.headers()) {
            calls::refused(403, &peer, &reason);
            return plain(StatusCode::FORBIDDEN, &format!("recall: {reason}"));
        }
        let authorization = request
            .headers()
            .get(header::AUTHORIZATION)
            .map(|v| v.as_bytes());
        let grant = match self.tokens.grant(authorization) {
            Ok(grant) => {
                trust.trusted();
                grant
            }
            Err(reason) => {
                calls::refused(401, &peer, reason);
                let mut response = plain(StatusCode::UNAUTHORIZED, &format!("recall: {reason}"));
                response.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"recall\""),
                );
                return response;
            }
        };
        let (mut parts, body) = request.into_parts();
        if parts.method != http::Method::POST {
            // rmcp's answer (405), without the body.
            parts.extensions.insert(grant);
            let request = Request::from_parts(parts, Full::new(Bytes::new()));
            return self.service.handle(request).await;
        }
        let declared = parts
            .headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        let limit = if grant.writes {
            MAX_WRITE_BODY
        } else {
            MAX_READ_BODY
        };
        let read = limits::read_body(body, declared, limit, &self.budget, &self.timeouts).await;
        let (bytes, _reserved) = match read {
            Ok(read) => read,
            Err(unread) => return self.unread(unread, &peer, &grant),
        };
        if json(&parts.headers) {
            match decode::line(&bytes) {
                Decoded::Message(_) => {}
                Decoded::Answer(error) => return json_error(error),
                Decoded::Nothing if bytes.iter().all(u8::is_ascii_whitespace) => {
                    return json_error(decode::answer(
                        serde_json::Value::Null,
                        decode::PARSE_ERROR,
                        "parse error: the body is empty: send one JSON-RPC message".into(),
                    ))
                }
                Decoded::Nothing => {
                    return json_error(decode::answer(
                        serde_json::Value::Null,
                        decode::INVALID_REQUEST,
                        "invalid request: the body is not a JSON-RPC request, notification \
                         or response"
                            .into(),
                    ))
                }
            }
        }
        parts.extensions.insert(grant);
        // Answered (rmcp builds the JSON whole) before the body's budget is given back.
        self.service
            .handle(Request::from_parts(parts, Full::new(bytes)))
            .await
    }

    fn unread(&self, unread: Unread, peer: &SocketAddr, grant: &Grant) -> Response<Body> {
        let token = &grant.name;
        let (status, reason) = match unread {
            Unread::TooLarge if grant.writes => (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request is longer than the {MAX_WRITE_BODY} bytes ({} MiB) one \
                     message may hold, as on stdio: send a smaller one",
                    MAX_WRITE_BODY >> 20
                ),
            ),
            Unread::TooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request is longer than the {MAX_READ_BODY} bytes a call of a token \
                     that only reads may send (a query is at most {} KiB): only a token that \
                     writes sends more, up to {} MiB for add",
                    crate::serve::arguments::MAX_QUERY >> 10,
                    MAX_WRITE_BODY >> 20
                ),
            ),
            Unread::Slow => (
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request's body came too slowly (a pause of more than {} ms, or less \
                     than {} KiB a second after the first {} ms): send it whole",
                    self.timeouts.body_gap.as_millis(),
                    limits::MIN_RATE >> 10,
                    self.timeouts.body_grace.as_millis()
                ),
            ),
            Unread::Busy => (
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "other long requests are being read and served ({} MiB at once at most): \
                     send it again in a moment",
                    limits::LARGE_IN_FLIGHT >> 20
                ),
            ),
            Unread::Failed(e) => (
                StatusCode::BAD_REQUEST,
                format!("the request's body could not be read: {e}"),
            ),
        };
        calls::refused(status.as_u16(), peer, &format!("token={token}: {reason}"));
        let mut response = closing(plain(status, &format!("recall: {reason}")));
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

/// Whether the body is declared JSON, as rmcp requires (else rmcp answers 415).
fn json(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            let essence = v.split_once(';').map_or(v, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        })
}

/// A JSON-RPC error for a body rmcp would not read: 400, as the transport says.
fn json_error(error: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(error)).boxed());
    *response.status_mut() = StatusCode::BAD_REQUEST;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// The response, after which the connection closes: its body (if any) is not read.
fn closing(mut response: Response<Body>) -> Response<Body> {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(format!("{text}\n"))).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_loopback_unless_public() {
        assert_eq!(address("0", false).unwrap(), "127.0.0.1:0".parse().unwrap());
        assert_eq!(address("127.0.0.1:9000", false).unwrap().port(), 9000);
        assert_eq!(
            address("[::1]:9000", false).unwrap(),
            "[::1]:9000".parse().unwrap()
        );
        assert_eq!(address("127.0.0.1", false).unwrap().port(), DEFAULT_PORT);
        let refused = address("0.0.0.0:9000", false).unwrap_err().message;
        assert!(
            refused.contains("not a loopback address") && refused.contains("--public"),
            "{refused}"
        );
        assert!(address("0.0.0.0:9000", true).is_ok());
        assert!(address("no such host name:x", false)
            .unwrap_err()
            .message
            .contains("--http"));
    }
}
