//! The headers `recall mcp --http` and `recall ui` decide on, checked before a token or a
//! body is read: each at most once (one `Host` exactly, a host and an optional port as
//! RFC 9110 writes it, nothing else), a `Host` of a loopback name unless `--public`, and
//! an `Origin`, when a browser sends one, of a page allowed to call the server.
use std::net::{IpAddr, SocketAddr};

use http::{header, HeaderMap, HeaderName};

/// The headers of which a request may carry one: a second would be read by one part of
/// the server and not another.
const SINGLE: [HeaderName; 5] = [
    header::HOST,
    header::AUTHORIZATION,
    header::ORIGIN,
    header::CONTENT_TYPE,
    header::CONTENT_LENGTH,
];
/// The header that carries `recall ui`'s access token, of the printed URL.
pub const TOKEN_HEADER: &str = "x-recall-token";
/// The header that carries the token of one of `recall ui`'s pages, which a write must
/// show.
pub const PAGE_HEADER: &str = "x-recall-page";

/// Also single: MCP's own, and the review page's tokens.
const SINGLE_OWN: [&str; 4] = [
    "mcp-protocol-version",
    "mcp-session-id",
    TOKEN_HEADER,
    PAGE_HEADER,
];

/// The loopback names a `Host` may give without `--public`.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// A request's headers' fault: 400.
pub fn shape(headers: &HeaderMap) -> Result<(), String> {
    let names = SINGLE
        .iter()
        .map(|n| n.as_str())
        .chain(SINGLE_OWN.iter().copied());
    for name in names {
        let n = headers.get_all(name).iter().count();
        if n > 1 {
            return Err(format!(
                "the request has {n} {name} headers: send one (a proxy that adds one should \
                 replace it)"
            ));
        }
    }
    let Some(host) = headers.get(header::HOST) else {
        return Err("the request has no Host header: HTTP/1.1 requires one".into());
    };
    if host_of(host.as_bytes()).is_none() {
        return Err(format!(
            "the Host header {:?} is not a host and an optional port (RFC 9110: no user \
             name, path or other part): send the server's name, as in Host: localhost:8848",
            String::from_utf8_lossy(host.as_bytes())
                .chars()
                .take(200)
                .collect::<String>()
        ));
    }
    Ok(())
}

/// A `Host` value's host (lower case, an IPv6 address without its brackets) and port,
/// when it is `uri-host [ ":" port ]` (RFC 9110 7.2, RFC 3986 3.2.2): an IP literal in
/// brackets, or a name of unreserved characters, percent escapes and sub-delimiters; a
/// port of digits. Nothing else: no user name (`evil.com@localhost`), no path, no space.
fn host_of(value: &[u8]) -> Option<(String, Option<u16>)> {
    let text = std::str::from_utf8(value).ok()?;
    let (host, port) = match text.strip_prefix('[') {
        Some(rest) => {
            let (inside, after) = rest.split_once(']')?;
            inside.parse::<std::net::Ipv6Addr>().ok()?;
            let port = match after {
                "" => None,
                p => Some(p.strip_prefix(':')?),
            };
            (inside.to_string(), port)
        }
        None => {
            let (name, port) = match text.split_once(':') {
                Some((name, port)) => (name, Some(port)),
                None => (text, None),
            };
            let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~%!$&'()*+,;=".contains(c);
            if name.is_empty() || !name.chars().all(allowed) {
                return None;
            }
            (name.to_string(), port)
        }
    };
    let port = match port {
        None | Some("") => None,
        Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => Some(p.parse::<u16>().ok()?),
        Some(_) => return None,
    };
    Some((host.to_ascii_lowercase(), port))
}

/// A browser origin: scheme, host (lower case, IPv6 without brackets), port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// `scheme://host[:port]`, as a browser writes `Origin` (and a user `--allow-origin`).
    pub fn parse(text: &str) -> Option<Origin> {
        let (scheme, rest) = text.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let default = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        if rest.is_empty() || rest.contains(['/', '?', '#', '@']) {
            return None;
        }
        let authority = http::uri::Authority::try_from(rest).ok()?;
        Some(Origin {
            scheme,
            host: bare(authority.host()),
            port: authority.port_u16().unwrap_or(default),
        })
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        write!(f, "{}://{host}:{}", self.scheme, self.port)
    }
}

/// Who may call: the `Host` names and the browser origins.
pub struct Policy {
    /// `--public`: any `Host` (a reverse proxy's name).
    pub public: bool,
    /// The address the server listens on: its own loopback origins are allowed, those
    /// whose host reaches it (`localhost`, and the loopback address it is bound to).
    pub bound: SocketAddr,
    /// `--allow-origin`.
    pub origins: Vec<Origin>,
}

impl Policy {
    /// A request's `Host` and `Origin` (403), once `shape` has passed.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), String> {
        if !self.public {
            let host = headers
                .get(header::HOST)
                .and_then(|v| host_of(v.as_bytes()))
                .map(|(host, _)| host);
            if !host.as_deref().is_some_and(|h| LOOPBACK.contains(&h)) {
                return Err(
                    "the Host header is not a loopback name (localhost, 127.0.0.1, ::1): this \
                     server answers requests for loopback names only; serve with --public \
                     behind a reverse proxy"
                        .into(),
                );
            }
        }
        // No Origin: not a browser's request (a browser sends one with every POST).
        let Some(value) = headers.get(header::ORIGIN) else {
            return Ok(());
        };
        let text = String::from_utf8_lossy(value.as_bytes());
        let allowed = Origin::parse(&text).is_some_and(|origin| {
            self.origins.contains(&origin)
                || (!self.public
                    && origin.scheme == "http"
                    && origin.port == self.bound.port()
                    && self.own_names().contains(&origin.host))
        });
        if allowed {
            return Ok(());
        }
        let own = if self.public {
            String::new()
        } else {
            format!(" (or its own, http://localhost:{})", self.bound.port())
        };
        Err(format!(
            "the Origin {:?} is not one this server answers: a web page's request, which only \
             the origins of --allow-origin may send{own}",
            text.chars().take(200).collect::<String>()
        ))
    }
}

impl Policy {
    /// The loopback names of the server's own pages: `localhost`, and the loopback
    /// address it listens on (a page of `http://[::1]:PORT` is another server's when this
    /// one listens on 127.0.0.1 only).
    fn own_names(&self) -> Vec<String> {
        let mut names = vec!["localhost".to_string()];
        let ip: IpAddr = self.bound.ip();
        if ip.is_loopback() {
            names.push(ip.to_string());
        }
        names
    }
}

/// A host as compared: lower case, an IPv6 address without its brackets.
fn bare(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(list: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in list {
            map.append(
                HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        map
    }

    #[test]
    fn single_headers_come_once() {
        assert!(shape(&headers(&[("host", "127.0.0.1:1")])).is_ok());
        assert!(shape(&headers(&[])).unwrap_err().contains("no Host header"));
        for name in [
            "host",
            "authorization",
            "origin",
            "content-type",
            "content-length",
            "mcp-protocol-version",
        ] {
            let h = headers(&[("host", "127.0.0.1"), (name, "1"), (name, "1")]);
            let h = if name == "host" {
                headers(&[("host", "a"), ("host", "b")])
            } else {
                h
            };
            let why = shape(&h).unwrap_err();
            assert!(why.contains(&format!("2 {name} headers")), "{why}");
        }
        assert!(shape(&headers(&[("host", "a"), ("accept", "x"), ("accept", "y")])).is_ok());
        let two_tokens = headers(&[
            ("host", "a"),
            ("x-recall-token", "1"),
            ("x-recall-token", "2"),
        ]);
        assert!(shape(&two_tokens)
            .unwrap_err()
            .contains("2 x-recall-token headers"));
    }

    #[test]
    fn a_host_is_a_host_and_a_port() {
        for good in [
            "localhost",
            "localhost:8848",
            "127.0.0.1:1",
            "[::1]",
            "[::1]:8848",
            "MEMORY.example:443",
            "a-b_c~d.e",
            "host:",
            "xn--bcher-kva.example",
        ] {
            assert!(shape(&headers(&[("host", good)])).is_ok(), "{good}");
        }
        for bad in [
            "evil.com@localhost",
            "user:pass@localhost:8848",
            "localhost/x",
            "localhost:80/x",
            "localhost?q",
            "localhost#f",
            "local host",
            "",
            ":8848",
            "[::1",
            "[not-ip]:80",
            "[::1]x",
            "localhost:80:81",
            "localhost:99999",
            "localhost:8a",
            "[v1.x]",
        ] {
            let why = shape(&headers(&[("host", bad)])).unwrap_err();
            assert!(
                why.contains("not a host and an optional port"),
                "{bad}: {why}"
            );
        }
        let local = Policy {
            public: false,
            bound: "127.0.0.1:8848".parse().unwrap(),
            origins: Vec::new(),
        };
        // Before the shape check too: a user name never reads as a loopback host.
        assert!(local
            .check(&headers(&[("host", "evil.com@localhost")]))
            .is_err());
    }

    #[test]
    fn hosts_and_origins() {
        let local = Policy {
            public: false,
            bound: "127.0.0.1:8848".parse().unwrap(),
            origins: vec![Origin::parse("https://app.example").unwrap()],
        };
        let ok = |p: &Policy, h: &[(&str, &str)]| p.check(&headers(h));
        assert!(ok(&local, &[("host", "127.0.0.1:8848")]).is_ok());
        assert!(ok(&local, &[("host", "LOCALHOST")]).is_ok());
        assert!(ok(&local, &[("host", "[::1]:9")]).is_ok());
        assert!(ok(&local, &[("host", "attacker.example")])
            .unwrap_err()
            .contains("--public"));
        let host = ("host", "127.0.0.1:8848");
        for origin in [
            "http://localhost:8848",
            "http://127.0.0.1:8848",
            "https://app.example:443",
            "HTTPS://APP.example",
        ] {
            assert!(ok(&local, &[host, ("origin", origin)]).is_ok(), "{origin}");
        }
        // Listening on ::1, its own page is there; on 127.0.0.1, a page of [::1] is not.
        let six = Policy {
            public: false,
            bound: "[::1]:8848".parse().unwrap(),
            origins: Vec::new(),
        };
        assert!(ok(&six, &[host, ("origin", "http://[::1]:8848")]).is_ok());
        assert!(ok(&six, &[host, ("origin", "http://127.0.0.1:8848")]).is_err());
        for origin in [
            "http://[::1]:8848",
            "http://127.0.0.2:8848",
            "http://localhost:8849",
            "http://localhost",
            "https://localhost:8848",
            "http://evil.example:8848",
            "null",
            "http://app.example",
            "https://app.example/x",
            "garbage",
        ] {
            let why = ok(&local, &[host, ("origin", origin)]).unwrap_err();
            assert!(
                why.contains("--allow-origin") && why.contains(origin),
                "{origin}: {why}"
            );
        }
        let public = Policy {
            public: true,
            bound: "0.0.0.0:8848".parse().unwrap(),
            origins: local.origins.clone(),
        };
        assert!(ok(&public, &[("host", "memory.example")]).is_ok());
        assert!(ok(&public, &[("host", "x"), ("origin", "https://app.example")]).is_ok());
        assert!(ok(
            &public,
            &[("host", "x"), ("origin", "http://localhost:8848")]
        )
        .is_err());
        assert_eq!(
            Origin::parse("http://[::1]:80").unwrap().to_string(),
            "http://[::1]:80"
        );
        assert_eq!(
            Origin::parse("https://a.b").unwrap().to_string(),
            "https://a.b:443"
        );
    }
}
