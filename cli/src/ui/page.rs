//! The page: one HTML file, its style and its script, embedded in the binary
//! (`include_str!`), so the page works offline and loads nothing from another origin.
//! The one value the server writes into the HTML, the page's token, is escaped; every
//! value the script shows is put in the page as text (`textContent`), never as markup.
pub const SCRIPT: &str = include_str!("page/app.js");
pub const STYLE: &str = include_str!("page/app.css");
const HTML: &str = include_str!("page/index.html");

/// The page, holding `page_token` for its writes.
pub fn html(page_token: &str) -> String {
    HTML.replace("{{PAGE_TOKEN}}", &escape(page_token))
}

/// Text as HTML text or a quoted attribute's value: `& < > " '` as entities.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_stays_text() {
        assert_eq!(
            escape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        let page = html("\"><script>");
        assert!(page.contains("content=\"&quot;&gt;&lt;script&gt;\""));
        assert_eq!(HTML.matches("{{PAGE_TOKEN}}").count(), 1);
        // No inline script or style, nothing from elsewhere.
        assert!(!HTML.contains("<script>") && !HTML.contains("style="));
        assert!(!HTML.contains("http://") && !HTML.contains("https://"));
        assert!(!SCRIPT.contains("innerHTML") && !SCRIPT.contains("eval("));
    }
}
