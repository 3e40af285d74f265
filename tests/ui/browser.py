"""recall ui in a real browser: headless Chromium driven by Selenium (Debian's chromium,
chromium-driver and python3-selenium). On a library made from the sample and two items
of its own, the page searches, opens an item, forgets it (and its bytes leave the file),
promotes one and sets its kind, shows the agent's view and the status; each answer is
compared with what the recall command prints for the same request, run as a separate
process. Screenshots at a desktop and a phone width go to the folder given.

Usage: browser.py RECALL LIBRARY SCREENSHOTS
"""
import json
import os
import re
import shlex
import subprocess
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

RECALL, LIBRARY, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
# How long a step waits for the page: a bound on a failure, not a measure of speed.
WAIT = 30
FAILED = []
PASSED = [0]


def check(name, ok, detail=""):
    if ok:
        PASSED[0] += 1
        print(f"ok: {name}")
    else:
        FAILED.append(name)
        print(f"FAILED: {name}\n{detail}")


def recall(*args, stdin=None, code=0):
    env = dict(os.environ, RECALL_DB=LIBRARY)
    ran = subprocess.run([RECALL, *args], input=stdin, capture_output=True, text=True, env=env)
    if ran.returncode != code:
        raise SystemExit(f"recall {' '.join(args)}: exit {ran.returncode}, expected {code}\n{ran.stderr}")
    return ran.stdout


def listing(*args):
    """The result lines recall prints for a query with --explain, before its `--`."""
    out = recall(*args).splitlines()
    return out[: out.index("--")] if "--" in out else out


def library_bytes():
    data = b""
    for suffix in ("", "-wal"):
        try:
            with open(LIBRARY + suffix, "rb") as f:
                data += f.read()
        except FileNotFoundError:
            pass
    return data


def main():
    server = subprocess.Popen(
        [RECALL, "--db", LIBRARY, "ui"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        url = server.stdout.readline().strip()
        check("recall ui prints one URL with a token", re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64}", url) is not None, url)
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1280,900", "--hide-scrollbars", "--force-device-scale-factor=1"):
            options.add_argument(arg)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            run(driver, url)
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait(timeout=WAIT)
    print(f"ui browser: {PASSED[0]} passed, {len(FAILED)} failed")
    if FAILED:
        print("failed: " + ", ".join(FAILED))
        sys.exit(1)


def wait(driver, what, condition):
    try:
        return WebDriverWait(driver, WAIT).until(lambda d: condition(d))
    except TimeoutException:
        raise SystemExit(f"the page did not show {what} within {WAIT} s; message: {message(driver)!r}")


def message(driver):
    m = driver.find_element(By.ID, "message")
    return m.text if m.is_displayed() else ""


def set_field(driver, form, name, value):
    field = driver.find_element(By.CSS_SELECTOR, f"#{form} [name={name}]")
    if field.tag_name == "select":
        Select(field).select_by_value(value)
    else:
        field.clear()
        field.send_keys(value)


def page_lines(driver, list_id):
    """Each row of a result list as text: a group heading, a line, its detail line."""
    return driver.execute_script(
        """
        const out = [];
        for (const li of document.getElementById(arguments[0]).children) {
          if (li.classList.contains('group') || li.classList.contains('none')) {
            out.push(li.textContent);
            continue;
          }
          out.push(li.querySelector('.line').textContent);
          const d = li.querySelector('.detail');
          if (d) out.push(d.textContent);
        }
        return out;
        """,
        list_id,
    )


def search(driver, query, **options):
    driver.find_element(By.CSS_SELECTOR, "nav button[data-tab=search]").click()
    for name in ("project", "since", "limit"):
        set_field(driver, "search-form", name, options.get(name, ""))
    for name in ("kind", "scope"):
        set_field(driver, "search-form", name, options.get(name, ""))
    set_field(driver, "search-form", "query", query)
    driver.execute_script("document.getElementById('search-note').textContent = ''")
    driver.find_element(By.CSS_SELECTOR, "#search-form button[type=submit]").click()
    wait(driver, "the search's answer", lambda d: d.find_element(By.ID, "search-note").text or message(d))
    return page_lines(driver, "results")


def open_item(driver, item_id):
    link = driver.find_element(By.CSS_SELECTOR, f"#results a.id[data-id='{item_id}']")
    link.click()
    wait(driver, f"item {item_id}", lambda d: d.find_element(By.ID, "item-title").text.startswith(f"[{item_id}]"))


def field_of(driver, name):
    return driver.execute_script(
        """
        const dts = [...document.querySelectorAll('#item-fields dt')];
        const dt = dts.find((x) => x.textContent === arguments[0]);
        return dt ? dt.nextElementSibling.textContent : null;
        """,
        name,
    )


def shot(driver, name):
    path = os.path.join(SHOTS, name)
    driver.save_screenshot(path)
    print(f"screenshot {path}")


def run(driver, url):
    driver.get(url)
    wait(driver, "the page ready", lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    check("the page names the library", driver.find_element(By.ID, "library").text == LIBRARY, driver.find_element(By.ID, "library").text)

    # Search with the CLI's options: the lines recall search --explain prints.
    cases = [
        ("database is locked", {}, []),
        ("database is locked", {"project": "api"}, ["--project", "api"]),
        ("analytics script", {"since": "2024-06-01", "scope": "all", "project": "shop"},
         ["--since", "2024-06-01", "--scope", "all", "--project", "shop"]),
        ("decision", {"kind": "decision", "limit": "3"}, ["--kind", "decision", "--limit", "3"]),
        ("release", {"kind": "bugfix"}, ["--kind", "bugfix"]),
    ]
    for query, options, flags in cases:
        shown = search(driver, query, **options)
        expected = listing("search", query, *flags, "--explain")
        check(f"search {query!r} {flags} lists what recall search lists", shown == expected,
              "page:\n  " + "\n  ".join(shown) + "\nrecall:\n  " + "\n  ".join(expected))
    search(driver, "database is locked")
    shot(driver, "ui-search-desktop.png")

    # An item: every field, its transcript as stored, the timeline around it, later.
    canary = json.loads(recall("--json", "search", "zqcanary"))["results"][0]["id"]
    search(driver, "zqcanary")
    open_item(driver, canary)
    stored = json.loads(recall("--json", "get", str(canary), "--transcript"))["item"]
    check("the item's transcript is the stored one",
          driver.find_element(By.ID, "item-transcript").get_attribute("textContent") == stored["transcript"])
    # A long transcript: one page at first, the rest on asking, then whole as stored.
    long_id = json.loads(recall("--json", "search", "zqlongtranscript"))["results"][0]["id"]
    search(driver, "zqlongtranscript")
    open_item(driver, long_id)
    long_stored = json.loads(recall("--json", "get", str(long_id), "--transcript"))["item"]["transcript"]
    pre = driver.find_element(By.ID, "item-transcript")
    more = driver.find_element(By.ID, "transcript-more")
    first = pre.get_attribute("textContent")
    check("a long transcript comes a page at a time",
          len(first) == 262144 and long_stored.startswith(first) and more.is_displayed(),
          f"{len(first)} characters shown of {len(long_stored)}")
    pages = 1
    while more.is_displayed() and pages < 10:
        more.click()
        pages += 1
        wait(driver, f"page {pages}", lambda d, n=pages: len(pre.get_attribute("textContent")) >= min(n * 262144, len(long_stored)))
    check("asked for, the pages make the stored transcript whole",
          pre.get_attribute("textContent") == long_stored and pages == -(-len(long_stored) // 262144),
          f"{pages} pages, {len(pre.get_attribute('textContent'))} of {len(long_stored)} characters")
    search(driver, "zqcanary")
    open_item(driver, canary)
    for name in ("title", "summary", "project", "source", "occurred_at"):
        check(f"the item's {name} is the stored one", field_of(driver, name) == str(stored[name]),
              f"{field_of(driver, name)!r} != {stored[name]!r}")
    check("the timeline around it is recall timeline --around's",
          page_lines(driver, "item-timeline") == listing("timeline", "--around", str(canary)),
          f"{page_lines(driver, 'item-timeline')}")
    check("later is recall later --explain's",
          page_lines(driver, "item-later") == listing("later", str(canary), "--explain"))

    # Stored markup stays text.
    marked = json.loads(recall("--json", "search", "zqmarkup"))["results"][0]["id"]
    lines = search(driver, "zqmarkup")
    check("a stored <script> is listed as text", any("<script>" in l for l in lines), str(lines))
    open_item(driver, marked)
    check("a stored <script> is the item's title as text",
          "<script>" in driver.find_element(By.ID, "item-title").text)
    injected = driver.execute_script(
        "return [document.scripts.length, document.querySelectorAll('img').length,"
        " document.body.dataset.pwned || null, window.pwned || null]")
    check("no stored markup became an element or ran", injected == [1, 0, None, None], str(injected))
    shot(driver, "ui-item-desktop.png")

    # Forget: a confirmation naming what goes, then nothing of it left in the file.
    recall("optimize")
    check("before forget, the canary's bytes are in the library", b"zqcanary-secret-4412" in library_bytes())
    search(driver, "zqcanary")
    open_item(driver, canary)
    driver.find_element(By.ID, "forget").click()
    wait(driver, "the confirmation", lambda d: d.find_element(By.ID, "confirm").is_displayed())
    named = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#confirm-list li")]
    check("the confirmation names the item that goes",
          len(named) == 1 and named[0].startswith(f"[{canary}] ") and stored["title"] in named[0], str(named))
    shot(driver, "ui-forget-desktop.png")
    driver.find_element(By.ID, "confirm-yes").click()
    wait(driver, "the forget's answer", lambda d: message(d).startswith("forgot") or "bad" in d.find_element(By.ID, "message").get_attribute("class"))
    check("the page says it forgot the item", message(driver).startswith(f"forgot {canary}"), message(driver))
    check("the forgotten item left the result list",
          not driver.find_elements(By.CSS_SELECTOR, f"#results a.id[data-id='{canary}']"))
    again = search(driver, "zqcanary")
    check("a search finds it no more", not any(f"[{canary}]" in l for l in again), str(again))
    recall("get", str(canary), code=2)
    check("none of its bytes are left in the file or its log", b"zqcanary-secret-4412" not in library_bytes())
    check("recall check is clean after the forget", subprocess.run(
        [RECALL, "--db", LIBRARY, "check"], capture_output=True).returncode == 0)

    # Promote, set the kind, demote: the same marks recall get shows.
    target = json.loads(recall("--json", "search", "analytics script"))["results"][0]["id"]
    search(driver, "analytics script")
    open_item(driver, target)
    driver.find_element(By.ID, "promote").click()
    wait(driver, "the promotion", lambda d: field_of(d, "global") == "true")
    check("promote: recall get shows it global",
          json.loads(recall("--json", "get", str(target)))["item"]["global"] is True)
    Select(driver.find_element(By.ID, "kind-set")).select_by_value("decision")
    driver.find_element(By.ID, "kind-apply").click()
    wait(driver, "the kind", lambda d: field_of(d, "kind") == "decision")
    check("set kind: recall get shows the kind",
          json.loads(recall("--json", "get", str(target)))["item"]["kind"] == "decision")
    lines = search(driver, "analytics script")
    check("the list shows its marks as recall search does",
          lines == listing("search", "analytics script", "--explain") and any(f"[{target}]" in l and "decision, global" in l for l in lines), str(lines))
    open_item(driver, target)
    driver.find_element(By.ID, "demote").click()
    wait(driver, "the demotion", lambda d: field_of(d, "global") == "false")
    check("demote: recall get shows it of its project only",
          json.loads(recall("--json", "get", str(target)))["item"]["global"] is False)

    # The agent's view: what recall hook prints for each payload, and what a new
    # session is given at its start, its first prompt and on reading the file.
    driver.find_element(By.CSS_SELECTOR, "nav button[data-tab=agent]").click()
    prompt = "don't keep the analytics script in the shop"
    set_field(driver, "agent-form", "project", "shop")
    set_field(driver, "agent-form", "prompt", prompt)
    set_field(driver, "agent-form", "file", "templates/base.html")
    driver.find_element(By.CSS_SELECTOR, "#agent-form button[type=submit]").click()
    wait(driver, "the agent's view", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#agent-blocks .block")) == 3)
    blocks = driver.execute_script(
        """
        return [...document.querySelectorAll('#agent-blocks .block')].map((b) => ({
          event: b.dataset.event, cmd: b.querySelector('.cmd').textContent,
          printed: b.querySelector('pre.printed').textContent,
          context: b.querySelector('pre.context').textContent }));
        """)
    check("three blocks: start, first prompt, the file",
          [b["event"] for b in blocks] == ["SessionStart", "UserPromptSubmit", "PostToolUse"], str(blocks))
    session = {"session_id": "browser-test-1", "transcript_path": "/nowhere/t.jsonl"}
    fresh = [
        dict(session, hook_event_name="SessionStart", source="startup"),
        dict(session, hook_event_name="UserPromptSubmit", prompt=prompt),
        dict(session, hook_event_name="PostToolUse", tool_name="Read",
             tool_input={"file_path": "templates/base.html"}),
    ]
    for b, payload in zip(blocks, fresh):
        words = shlex.split(b["cmd"])
        shown = words[:2] + words[3:] == ["printf", "%s\\n", "|", "recall", "hook", "--project", "shop"]
        check(f"{b['event']}: the page shows the command", shown, b["cmd"])
        if not shown:
            continue
        same = recall("hook", "--project", "shop", stdin=words[2])
        env = dict(os.environ, RECALL_DB=LIBRARY,
                   PATH=os.path.dirname(RECALL) + os.pathsep + os.environ.get("PATH", ""))
        in_shell = subprocess.run(["sh", "-c", b["cmd"]], capture_output=True, text=True, env=env)
        check(f"{b['event']}: the command shown, run in sh, prints the page's text",
              in_shell.returncode == 0 and in_shell.stdout == b["printed"], in_shell.stdout + in_shell.stderr)
        check(f"{b['event']}: the page's text is what recall hook prints for its payload",
              b["printed"] == same, f"page:\n{b['printed']}\nrecall hook:\n{same}")
        session_text = recall("hook", "--project", "shop", stdin=json.dumps(payload))
        check(f"{b['event']}: the same as a new session is given", b["printed"] == session_text,
              f"page:\n{b['printed']}\nsession:\n{session_text}")
        check(f"{b['event']}: something is injected", "<recall-memory" in b["printed"], b["printed"])
        try:
            context = json.loads(b["printed"])["hookSpecificOutput"]["additionalContext"]
        except ValueError:
            context = b["printed"]
        check(f"{b['event']}: the agent is given the context of it", b["context"] == context)
    shot(driver, "ui-agent-desktop.png")

    # Status: what recall status says.
    driver.find_element(By.CSS_SELECTOR, "nav button[data-tab=status]").click()
    wait(driver, "the status", lambda d: d.find_element(By.ID, "status").text)
    shown = driver.find_element(By.ID, "status").get_attribute("textContent")
    said = recall("status")
    check("the status is what recall status says", shown.rstrip("\n") == said.rstrip("\n"),
          f"page:\n{shown}\nrecall status:\n{said}")
    # What the hook injected: the log's newest entries as recall --json status gives them
    # (the agent's view above ran recall hook with sessions, each start, first prompt and
    # file logged; the page's own view is not).
    injected = json.loads(recall("--json", "status"))["injections"]
    check("the hook's injections are logged", injected["blocks"] >= 3, str(injected))
    rows = wait(driver, "the injections", lambda d: d.find_elements(By.CSS_SELECTOR, "#injections tbody tr"))
    shown_rows = [[td.get_attribute("textContent") for td in r.find_elements(By.TAG_NAME, "td")] for r in rows]
    expected = [[i["at"], i["event"], i["session"] or "", str(i["chars"]),
                 " ".join(f"[{n}]" for n in i["items"]), str(i["ms"])] for i in injected["latest"]]
    check("the page lists the injections recall status gives, the newest first",
          shown_rows == expected, f"page:\n{shown_rows}\nrecall status:\n{expected}")
    check("the page says how many are logged",
          driver.find_element(By.ID, "injections-note").text.startswith(f"{injected['blocks']} logged, {injected['chars']} characters"),
          driver.find_element(By.ID, "injections-note").text)
    shot(driver, "ui-status-desktop.png")
    first = next((i for i in injected["latest"] if i["items"]), None)
    if first is None:
        check("an injection lists items", False, str(injected))
    else:
        driver.find_element(By.CSS_SELECTOR, "#injections tbody tr td.items a").click()
        wait(driver, "the injected item opened",
             lambda d: d.find_element(By.ID, "item-title").text.startswith(f"[{first['items'][0]}] "))
        check("an injected item's id opens it", True)

    # A phone's width: the same page, laid out in one column.
    driver.set_window_size(390, 844)
    search(driver, "database is locked")
    width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check("at a phone's width nothing is wider than the screen", width[0] <= width[1], str(width))
    shot(driver, "ui-search-phone.png")
    open_item(driver, json.loads(recall("--json", "search", "database is locked"))["results"][0]["id"])
    width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check("an item at a phone's width is no wider than the screen", width[0] <= width[1], str(width))
    shot(driver, "ui-item-phone.png")


if __name__ == "__main__":
    main()
