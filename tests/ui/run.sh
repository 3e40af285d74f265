#!/bin/sh
# recall ui in headless Chromium (tests/ui/browser.py): a library made here from the
# sample and two items of its own (one holding markup, one a canary to forget), the
# screenshots written to SHOTS (target/ui by default). Chromium, its driver and Selenium
# are Debian's (tests/hosts/install.sh --browser installs them); a missing one fails.
# Usage: tests/ui/run.sh RECALL [SHOTS]
set -eu
recall=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
shots=$(realpath -m "${2:-$root/target/ui}")
for need in /usr/bin/chromium /usr/bin/chromedriver; do
  [ -x "$need" ] || { echo "tests/ui/run.sh: $need is missing: run tests/hosts/install.sh --browser (Debian's chromium and chromium-driver)" >&2; exit 1; }
done
/usr/bin/python3 -c 'import selenium' 2>/dev/null ||
  { echo "tests/ui/run.sh: /usr/bin/python3 has no selenium: run tests/hosts/install.sh --browser (Debian's python3-selenium)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$shots"
db="$work/memory.db"
"$recall" --db "$db" init >/dev/null
"$recall" --db "$db" import "$root/examples/sample.jsonl" >/dev/null
"$recall" --db "$db" add --source agent-claude --project api --at 2025-06-01T10:00:00Z \
  --title 'Rotate the zqcanary staging credentials' \
  --summary 'The staging deploy key zqcanary-secret-4412 was rotated after the audit.' \
  --transcript-file - >/dev/null <<'TEXT'
user: rotate zqcanary-secret-4412
assistant: rotated; the old key is revoked.
TEXT
"$recall" --db "$db" add --source agent-codex --project docs-site --at 2025-06-02T10:00:00Z \
  --title 'Markup <script>window.pwned=1</script> <img src=x onerror="document.body.dataset.pwned=1"> zqmarkup' \
  --summary '<b>bold</b> & <i>italic</i> stay text </pre><script>window.pwned=2</script>' \
  --transcript-file - >/dev/null <<'TEXT'
user: <script>window.pwned=3</script>
TEXT
# A transcript of four pages (the page sends 262,144 characters an answer), of
# characters of one, two, three and four bytes.
/usr/bin/python3 -c 'import sys; sys.stdout.write("".join(f"line {i}: é東😀 zqlong\n" for i in range(40000)))' |
  "$recall" --db "$db" add --source agent-claude --project api --at 2025-06-03T10:00:00Z \
    --title 'A long session zqlongtranscript' --transcript-file - >/dev/null
# Two of the sample's decisions marked so, for the kind filter.
"$recall" --db "$db" kind decision 166 204 >/dev/null
/usr/bin/python3 "$root/tests/ui/browser.py" "$recall" "$db" "$shots"
