//! The page's HTTP server: hyper on one tokio thread, each action on the blocking pool.
//! Every request passes, in order: the connection caps and time bounds `recall mcp --http`
//! has too (`serve::limits`); its header checks (`serve::headers`: one `Host`, a loopback
//! one; an `Origin`, when a browser sends one, of this server's own page); then
//!
//! - `GET /?token=T`: the page, when `T` is the access token the server printed; it
//!   holds a new page token (CSRF) in a `<meta>`;
//! - `GET /app.js`, `/app.css`: the page's script and style, which hold no data;
//! - `POST /api/ACTION`: a JSON body, the access token in the `X-Recall-Token` header
//!   (a page's script reads it from its URL), and for an action that writes the page's
//!   token in `X-Recall-Page`.
//!
//! Anything else is refused with its status and one line; the server goes on. Every
//! answer carries a Content-Security-Policy that lets the page load only this server's
//! script and style and talk only to it.
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http::{header, HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::{combinators::BoxBody, BodyExt, Full};
use hyper::body::Incoming;
use serde_json::{json, Value as Json};

use super::api::{self, Api};
use super::page;
use super::token::{self, Pages};
use crate::error::{err, Result};
use crate::serve::headers::{self, Policy, PAGE_HEADER, TOKEN_HEADER};
use crate::serve::limits::{self, Budget, Timeouts, Trust, MAX_READ_BODY};
use crate::serve::table::Access;

type Body = BoxBody<Bytes, Infallible>;

/// The policy of every answer: nothing but this server's own script, style and API; no
/// inline script or style, no frame, no form posted elsewhere.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
     connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

struct Gate {
    /// `--public`: any address and `Host`; the page's own origin is its `Host`'s.
    public: bool,
    api: Arc<Api>,
    /// The token of the printed URL.
    url_token: String,
    pages: Pages,
    policy: Policy,
    budget: Budget,
    timeouts: Timeouts,
}

/// Serves on 127.0.0.1:`port` (every address with `public`) until the process is
/// stopped. The URL to open is the first line on standard output.
pub async fn run(api: Api, port: u16, public: bool) -> Result<()> {
    let ip = if public { [0, 0, 0, 0] } else { [127, 0, 0, 1] };
    let addr = SocketAddr::from((ip, port));
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
        err!("cannot listen on {addr}: {e}; give another --port, or 0 for a free one")
    })?;
    let bound = listener
        .local_addr()
        .map_err(|e| err!("cannot listen on {addr}: {e}"))?;
    let url_token = token::random()?;
    let timeouts = Timeouts::get();
    let gate = Arc::new(Gate {
        api: Arc::new(api),
        url_token: url_token.clone(),
        pages: Pages::default(),
        public,
        policy: Policy {
            public,
            bound,
            origins: Vec::new(),
        },
        budget: Budget::new(),
        timeouts,
    });
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let shown = SocketAddr::from(([127, 0, 0, 1], bound.port()));
        let _ = writeln!(out, "http://{shown}/?token={url_token}");
        let _ = out.flush();
    }
    if public {
        eprintln!(
            "recall ui: serving on every address, port {} (--public: from another machine, open the URL above with this machine's name; the token is all that guards it, and HTTP is plain; Ctrl-C stops)",
            bound.port()
        );
    } else {
        eprintln!("recall ui: serving on http://{bound}/ (open the URL above; Ctrl-C stops)");
    }
    let log = limits::Log {
        refused: |peer, reason| eprintln!("recall ui: refused 503 from {peer}: {reason}"),
        closed: |peer, reason| eprintln!("recall ui: closed the connection of {peer}: {reason}"),
    };
    limits::run(listener, timeouts, log, move |_peer, trust| {
        let gate = gate.clone();
        hyper::service::service_fn(move |request| {
            let gate = gate.clone();
            let trust = trust.clone();
            async move { Ok::<_, Infallible>(secured(gate.handle(request, &trust).await)) }
        })
    })
    .await;
    Ok(())
}

impl Gate {
    async fn handle(&self, request: Request<Incoming>, trust: &Trust) -> Response<Body> {
        let method = request.method().clone();
        let path = request.uri().path().to_string();
        let answer = self.answer(request, trust).await;
        eprintln!("recall ui: {method} {path} {}", answer.status().as_u16());
        answer
    }

    async fn answer(&self, request: Request<Incoming>, trust: &Trust) -> Response<Body> {
        if let Err(reason) = headers::shape(request.headers()) {
            return closing(plain(StatusCode::BAD_REQUEST, &reason));
        }
        if let Err(reason) = self.origin(request.headers()) {
            return plain(StatusCode::FORBIDDEN, &reason);
        }
        let path = request.uri().path().to_string();
        let method = request.method().clone();
        if method == Method::GET || method == Method::HEAD {
            return match path.as_str() {
                "/" => self.page(request.uri().query(), trust),
                "/app.js" => asset("text/javascript; charset=utf-8", page::SCRIPT),
                "/app.css" => asset("text/css; charset=utf-8", page::STYLE),
                _ if path.starts_with("/api/") => plain(
                    StatusCode::METHOD_NOT_ALLOWED,
                    "the API takes POST with a JSON body",
                ),
                _ => plain(
                    StatusCode::NOT_FOUND,
                    "no such page: open the URL recall ui printed",
                ),
            };
        }
        let Some(action) = path.strip_prefix("/api/") else {
            return plain(
                StatusCode::NOT_FOUND,
                "no such path: the API is at /api/ACTION",
            );
        };
        if method != Method::POST {
            return plain(
                StatusCode::METHOD_NOT_ALLOWED,
                "the API takes POST with a JSON body",
            );
        }
        let given = request.headers().get(TOKEN_HEADER).map(|v| v.as_bytes());
        if !given.is_some_and(|t| token::same(t, self.url_token.as_bytes())) {
            return plain(
                StatusCode::UNAUTHORIZED,
                "no access token, or a wrong one: send the token of the URL recall ui printed in X-Recall-Token",
            );
        }
        trust.trusted();
        let action = action.to_string();
        let Some(known) = api::action(&action) else {
            return plain(
                StatusCode::NOT_FOUND,
                &format!(
                    "no such action {action:?} (known: {}, {})",
                    api::names(Access::Read).join(", "),
                    api::names(Access::Write).join(", ")
                ),
            );
        };
        if known.access() == Access::Write {
            let page = request.headers().get(PAGE_HEADER).map(|v| v.as_bytes());
            if !page.is_some_and(|t| self.pages.known(t)) {
                return plain(
                    StatusCode::FORBIDDEN,
                    "a write needs the token of a page this server served (X-Recall-Page): reload the page",
                );
            }
        }
        if !is_json(request.headers()) {
            return plain(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the body must be JSON: send Content-Type: application/json",
            );
        }
        let (parts, body) = request.into_parts();
        let declared = parts
            .headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        let bytes =
            match limits::read_body(body, declared, MAX_READ_BODY, &self.budget, &self.timeouts)
                .await
            {
                Ok((bytes, _)) => bytes,
                Err(limits::Unread::TooLarge) => {
                    return closing(plain(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        &format!("the body is longer than {MAX_READ_BODY} bytes"),
                    ))
                }
                Err(limits::Unread::Slow) => {
                    return closing(plain(
                        StatusCode::REQUEST_TIMEOUT,
                        "the body came too slowly: send it whole at once",
                    ))
                }
                // A page's bodies are below the limit of long ones: never kept waiting.
                Err(limits::Unread::Busy) => {
                    return closing(plain(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "the server is busy: try again",
                    ))
                }
                Err(limits::Unread::Failed(e)) => {
                    return closing(plain(
                        StatusCode::BAD_REQUEST,
                        &format!("the body could not be read whole: {e}"),
                    ))
                }
            };
        let body: Json = match serde_json::from_slice(&bytes) {
            Ok(v @ Json::Object(_)) => v,
            Ok(_) => return error(StatusCode::BAD_REQUEST, "the body must be a JSON object"),
            Err(e) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    &format!("the body is not JSON: {e}"),
                )
            }
        };
        let api = self.api.clone();
        let call = tokio::task::spawn_blocking(move || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| api.call(&action, body)))
        })
        .await;
        match call {
            Ok(Ok(Ok(answer))) => json_response(StatusCode::OK, &answer),
            Ok(Ok(Err(e))) => error(StatusCode::BAD_REQUEST, &e.message),
            _ => error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the action failed inside recall (a bug: please report it); nothing was written, and the server goes on",
            ),
        }
    }

    /// The `Host` and `Origin` checks of `recall mcp --http`; with `--public`, where any
    /// `Host` is answered, an `Origin` is this page's own when it names that `Host`.
    fn origin(&self, headers: &http::HeaderMap) -> std::result::Result<(), String> {
        let checked = self.policy.check(headers);
        if checked.is_ok() || !self.public {
            return checked;
        }
        let named = |name: header::HeaderName| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_ascii_lowercase)
        };
        let (Some(origin), Some(host)) = (named(header::ORIGIN), named(header::HOST)) else {
            return checked;
        };
        let own = ["http://", "https://"]
            .iter()
            .any(|scheme| origin.strip_prefix(scheme) == Some(host.as_str()));
        if own {
            Ok(())
        } else {
            Err(format!(
                "the Origin {:?} is not this page's own (the Host {:?}): a request from another site's page",
                origin.chars().take(200).collect::<String>(),
                host.chars().take(200).collect::<String>()
            ))
        }
    }

    /// The page, for the access token; a new page token in it.
    fn page(&self, query: Option<&str>, trust: &Trust) -> Response<Body> {
        let given = query
            .unwrap_or("")
            .split('&')
            .find_map(|pair| pair.strip_prefix("token="));
        if !given.is_some_and(|t| token::same(t.as_bytes(), self.url_token.as_bytes())) {
            return plain(
                StatusCode::UNAUTHORIZED,
                "no access token, or a wrong one: open the URL recall ui printed, with its ?token=",
            );
        }
        trust.trusted();
        match self.pages.issue() {
            Ok(page_token) => {
                let mut r = Response::new(Full::new(Bytes::from(page::html(&page_token))).boxed());
                r.headers_mut().insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                );
                r
            }
            Err(e) => plain(StatusCode::INTERNAL_SERVER_ERROR, &e.message),
        }
    }
}

fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            let essence = v.split_once(';').map_or(v, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        })
}

/// Every answer's headers: the policy, no sniffing, no referrer, no cache, no frame.
fn secured(mut response: Response<Body>) -> Response<Body> {
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    response
}

fn asset(kind: &'static str, text: &'static str) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    r
}

fn json_response(status: StatusCode, value: &Json) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from(value.to_string())).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

fn error(status: StatusCode, message: &str) -> Response<Body> {
    json_response(status, &json!({ "error": message }))
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from(format!("recall: {text}\n"))).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

fn closing(mut response: Response<Body>) -> Response<Body> {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
