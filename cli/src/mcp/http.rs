//! `recall mcp --http ADDR`: the same server over MCP's streamable HTTP transport, as
//! `rmcp` implements it (the official SDKs' clients speak it), at the path `/mcp`. Every
//! request first shows a bearer token (`grants`); its grant rides with the request into
//! each call. Stateless: each POST is answered on its own (JSON), so many clients share
//! one server, and a client that goes away mid-call cancels that call (its helpers are
//! killed, as on stdio). Bodies are held to the stdio server's line limit.
use std::convert::Infallible;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;

use bytes::Bytes;
use http::{header, Request, Response, StatusCode};
use http_body_util::{combinators::BoxBody, BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::calls;
use super::decode::MAX_LINE;
use super::grants::{Grant, Tokens};
use super::server::Server;
use crate::err;
use crate::error::Result;

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

/// The grant a request's token gave, carried into the call by rmcp with the request's
/// HTTP parts.
pub fn grant_of(extensions: &rmcp::model::Extensions) -> Option<Arc<Grant>> {
    extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Arc<Grant>>())
        .cloned()
}

/// Serves until the process is stopped.
pub async fn run(server: Server, tokens: Tokens, addr: SocketAddr, public: bool) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| err!("cannot listen on {addr}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| err!("cannot listen on {addr}: {e}"))?;
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_max_request_body_bytes(MAX_LINE);
    if public {
        // Behind a reverse proxy the Host is the proxy's name; the token guards instead.
        config = config.disable_allowed_hosts();
    }
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    let gate = Arc::new(Gate { tokens, service });
    eprintln!("recall mcp: serving on http://{bound}{PATH}");
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of descriptors, a connection reset before it was taken: the next.
            Err(_) => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let gate = gate.clone();
        tokio::spawn(async move {
            let serve = hyper::service::service_fn(move |request| {
                let gate = gate.clone();
                async move { Ok::<_, Infallible>(gate.handle(request, peer).await) }
            });
            // A connection that fails ends alone.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), serve)
                .await;
        });
    }
}

struct Gate {
    tokens: Tokens,
    service: StreamableHttpService<Server, NeverSessionManager>,
}

impl Gate {
    async fn handle(&self, mut request: Request<Incoming>, peer: SocketAddr) -> Response<Body> {
        if request.uri().path() != PATH {
            return plain(
                StatusCode::NOT_FOUND,
                &format!("recall: no such path: the MCP endpoint is {PATH}"),
            );
        }
        let authorization = request
            .headers()
            .get(header::AUTHORIZATION)
            .map(|v| v.as_bytes());
        let grant = match self.tokens.grant(authorization) {
            Ok(grant) => grant,
            Err(reason) => {
                calls::refused(401, &peer, reason);
                let mut response = plain(StatusCode::UNAUTHORIZED, &format!("recall: {reason}"));
                response.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    header::HeaderValue::from_static("Bearer realm=\"recall\""),
                );
                return response;
            }
        };
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > MAX_LINE as u64) {
            return too_large(&peer, &grant.name);
        }
        let name = grant.name.clone();
        request.extensions_mut().insert(grant);
        let response = self.service.handle(request).await;
        match response.status() {
            // A body longer than it said, or sent in chunks.
            StatusCode::PAYLOAD_TOO_LARGE => too_large(&peer, &name),
            StatusCode::FORBIDDEN => {
                let (parts, body) = response.into_parts();
                let text = body
                    .collect()
                    .await
                    .map(|b| String::from_utf8_lossy(&b.to_bytes()).into_owned())
                    .unwrap_or_default();
                let reason = format!(
                    "{}: this server answers requests for loopback names only; serve with \
                     --public behind a reverse proxy",
                    text.lines().next().unwrap_or("forbidden")
                );
                calls::refused(403, &peer, &reason);
                let mut refused = plain(StatusCode::FORBIDDEN, &format!("recall: {reason}"));
                *refused.headers_mut() = parts.headers;
                refused.headers_mut().insert(
                    header::CONTENT_TYPE,
                    header::HeaderValue::from_static("text/plain; charset=utf-8"),
                );
                refused
            }
            _ => response,
        }
    }
}

fn too_large(peer: &SocketAddr, token: &str) -> Response<Body> {
    let reason = format!(
        "the request is longer than the {MAX_LINE} bytes ({} MiB) one message may hold, as \
         on stdio: send a smaller one",
        MAX_LINE >> 20
    );
    calls::refused(413, peer, &format!("token={token}: {reason}"));
    plain(StatusCode::PAYLOAD_TOO_LARGE, &format!("recall: {reason}"))
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(format!("{text}\n"))).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
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
