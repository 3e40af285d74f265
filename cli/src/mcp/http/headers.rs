//! The headers `recall mcp --http` decides on, checked before a token or a body is read:
//! each at most once (one `Host` exactly), a `Host` of a loopback name unless `--public`,
//! and an `Origin`, when a browser sends one, of a page allowed to call the server.
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
/// Also single, MCP's own.
const SINGLE_MCP: [&str; 2] = ["mcp-protocol-version", "mcp-session-id"];

/// The loopback names a `Host` may give without `--public`.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// A request's headers' fault: 400.
pub fn shape(headers: &HeaderMap) -> Result<(), String> {
    let names = SINGLE
        .iter()
        .map(|n| n.as_str())
        .chain(SINGLE_MCP.iter().copied());
    for name in names {
        let n = headers.get_all(name).iter().count();
        if n > 1 {
            return Err(format!(
                "the request has {n} {name} headers: send one (a proxy that adds one should \
                 replace it)"
            ));
        }
    }
    if !headers.contains_key(header::HOST) {
        return Err("the request has no Host header: HTTP/1.1 requires one".into());
    }
    Ok(())
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
    /// The port the server listens on: its own loopback origins are allowed.
    pub port: u16,
    /// `--allow-origin`.
    pub origins: Vec<Origin>,
}

impl Policy {
    /// A request's `Host` and `Origin` (403), once `shape` has passed.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), String> {
        if !self.public {
            let host = headers
                .get(header::HOST)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| http::uri::Authority::try_from(v).ok())
                .map(|a| bare(a.host()));
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
                    && origin.port == self.port
                    && LOOPBACK.contains(&origin.host.as_str()))
        });
        if allowed {
            return Ok(());
        }
        let own = if self.public {
            String::new()
        } else {
            format!(" (or its own, http://localhost:{})", self.port)
        };
        Err(format!(
            "the Origin {:?} is not one this server answers: a web page's request, which only \
             the origins of --allow-origin may send{own}",
            text.chars().take(200).collect::<String>()
        ))
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
    }

    #[test]
    fn hosts_and_origins() {
        let local = Policy {
            public: false,
            port: 8848,
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
            "http://[::1]:8848",
            "https://app.example:443",
            "HTTPS://APP.example",
        ] {
            assert!(ok(&local, &[host, ("origin", origin)]).is_ok(), "{origin}");
        }
        for origin in [
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
            port: 8848,
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
