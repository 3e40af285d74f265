// The recall review page. Every value from the server is put in the page as text
// (textContent, or an element's value), never as markup: an item's text comes from
// transcripts, and a stored <script> must stay text.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  const pageToken = document.querySelector('meta[name="recall-page"]').content;
  const $ = (id) => document.getElementById(id);
  let current = null; // the item shown

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function say(text, bad) {
    const m = $("message");
    m.textContent = text || "";
    m.hidden = !text;
    m.className = bad ? "bad" : "";
  }

  async function api(action, body, write) {
    const headers = { "Content-Type": "application/json", "X-Recall-Token": token };
    if (write) headers["X-Recall-Page"] = pageToken;
    const r = await fetch("/api/" + action, {
      method: "POST", headers, body: JSON.stringify(body || {}),
      credentials: "omit", cache: "no-store",
    });
    const text = await r.text();
    let data = null;
    try { data = JSON.parse(text); } catch (e) { data = { error: text.trim() }; }
    if (!r.ok) throw new Error((data && data.error) || ("HTTP " + r.status));
    return data;
  }

  function tab(name) {
    for (const b of document.querySelectorAll("nav button")) {
      b.classList.toggle("on", b.dataset.tab === name);
    }
    for (const s of document.querySelectorAll("main > section")) {
      s.hidden = s.id !== "tab-" + name;
    }
    if (name === "status") status();
  }

  // One result as the command's text output lists it (the server sends the line the
  // CLI prints, and the detail line under it: the words it matched and where), its id a
  // link that opens it.
  function line(entry, onOpen) {
    const li = el("li");
    li.dataset.id = entry.id;
    const text = el("span", null, "line");
    const mark = "[" + entry.id + "]";
    const at = entry.line.indexOf(mark);
    const a = el("a", mark, "id");
    a.href = "#";
    a.dataset.id = entry.id;
    a.addEventListener("click", (ev) => { ev.preventDefault(); onOpen(entry.id); });
    if (at < 0) text.textContent = entry.line;
    else text.append(entry.line.slice(0, at), a, entry.line.slice(at + mark.length));
    li.append(text);
    if (entry.line.startsWith("> ")) li.classList.add("anchor");
    if (entry.detail) li.append(el("span", entry.detail, "detail"));
    return li;
  }

  // The lines of an answer into a list, under their "# matched by" headings.
  function lines(ol, answer) {
    let group = null;
    for (const entry of answer.lines) {
      if (entry.group && entry.group !== group) {
        ol.append(el("li", entry.group, "group"));
        group = entry.group;
      }
      ol.append(line(entry, open));
    }
    if (!answer.lines.length) ol.append(el("li", "(no results)", "none"));
  }

  async function search(ev) {
    if (ev) ev.preventDefault();
    const f = new FormData($("search-form"));
    const body = { query: f.get("query") || "" };
    for (const k of ["project", "since", "scope"]) if (f.get(k)) body[k] = f.get(k);
    if (f.get("kind")) body.kind = [f.get("kind")];
    if (f.get("limit")) body.limit = Number(f.get("limit"));
    const list = $("results");
    list.replaceChildren();
    $("search-note").textContent = "";
    try {
      const d = await api("search", body);
      say("");
      lines(list, d);
      const n = d.results.length;
      $("search-note").textContent = n ? n + (n === 1 ? " item" : " items")
        : "No item: " + ((d.explain && d.explain.reason) || "nothing matches");
    } catch (e) { say(e.message, true); }
  }

  function fields(item) {
    const dl = $("item-fields");
    dl.replaceChildren();
    const order = ["id", "title", "project", "source", "kind", "global", "occurred_at",
      "imported_at", "summary", "questions", "atoms", "changed_since"];
    const keys = order.filter((k) => k in item)
      .concat(Object.keys(item).filter((k) => !order.includes(k) && k !== "transcript"));
    for (const k of keys) {
      const v = item[k];
      const shown = v === null ? "—" : Array.isArray(v) ? v.join(", ")
        : typeof v === "object" ? JSON.stringify(v) : v;
      dl.append(el("dt", k), el("dd", shown));
    }
  }

  function listInto(id, answer, note) {
    const ol = $(id);
    ol.replaceChildren();
    if (answer && answer.error) { ol.append(el("li", answer.error, "bad")); return; }
    lines(ol, answer);
    if (note) {
      $(note).textContent = answer.results.length ? ""
        : "Nothing later: " + ((answer.explain && answer.explain.reason) || "no newer item on this subject");
    }
  }

  // The transcript comes a page at a time (the server sends at most 262,144 characters
  // an answer): the first with the item, the next ones on asking.
  let transcriptNext = null;
  async function morePage(id) {
    const d = await api("transcript", { id: Number(id), offset: transcriptNext });
    $("item-transcript").append(document.createTextNode(d.text));
    transcriptNext = d.next;
    const shown = transcriptNext === null ? d.total : transcriptNext;
    $("transcript-more").hidden = transcriptNext === null;
    $("transcript-note").textContent = transcriptNext === null ? ""
      : "Shown " + shown + " of " + d.total + " characters.";
  }

  async function open(id) {
    try {
      const d = await api("item", { id: Number(id) });
      const item = d.get.item;
      current = item;
      $("item-empty").hidden = true;
      $("item").hidden = false;
      $("confirm").hidden = true;
      $("item-title").textContent = "[" + item.id + "] " + item.title;
      fields(item);
      $("kind-set").value = item.kind || "";
      $("item-transcript").textContent = "";
      transcriptNext = item.transcript_chars ? 0 : null;
      if (transcriptNext === null) $("item-transcript").textContent = "(no transcript stored)";
      else await morePage(item.id);
      listInto("item-timeline", d.timeline);
      listInto("item-later", d.later, "later-note");
      say("");
      tab("item");
    } catch (e) { say(e.message, true); }
  }

  async function write(action, body, done) {
    try {
      const d = await api(action, body, true);
      if (d.missing && d.missing.length) say("not changed (no such item you may read): " + d.missing.join(", "), true);
      else say(done(d));
      return d;
    } catch (e) { say(e.message, true); return null; }
  }

  async function askForget() {
    if (!current) return;
    try {
      const d = await api("forget", { ids: [current.id], dry_run: true }, true);
      const ul = $("confirm-list");
      ul.replaceChildren();
      for (const it of d.items) {
        ul.append(el("li", "[" + it.id + "] " + (it.date || "").slice(0, 10) + " " + it.title +
          " (" + (it.project || "-") + ", " + it.source + ")"));
      }
      $("confirm-text").textContent = d.items.length
        ? "Forget this item? Its text is removed from the library file and its log for good:"
        : "Nothing to forget: the item is gone, or not one you may change.";
      $("confirm-yes").hidden = !d.items.length;
      $("confirm").hidden = false;
    } catch (e) { say(e.message, true); }
  }

  async function forget() {
    const id = current.id;
    const d = await write("forget", { ids: [id] }, (d) =>
      "forgot " + d.ids.join(", ") + (d.wiped ? "; the file was rewritten and its log emptied" : "") +
      (d.warning ? "; but " + d.warning : ""));
    $("confirm").hidden = true;
    if (d && d.ids.includes(id)) {
      current = null;
      $("item").hidden = true;
      $("item-empty").hidden = false;
      $("item-empty").textContent = "Item " + id + " was forgotten.";
      for (const a of document.querySelectorAll("#results a.id")) {
        if (Number(a.dataset.id) === id) a.parentElement.remove();
      }
    }
  }

  async function mark(action) {
    if (!current) return;
    const d = await write(action, { ids: [current.id] }, (d) =>
      d.ids.join(", ") + (d.global ? ": global, visible in every project" : ": of its own project only"));
    if (d) open(current.id);
  }

  async function setKind() {
    if (!current) return;
    const kind = $("kind-set").value || null;
    const d = await write("kind", { ids: [current.id], kind }, (d) =>
      d.ids.join(", ") + ": " + (d.kind ? "kind " + d.kind : "no kind"));
    if (d) open(current.id);
  }

  async function agent(ev) {
    ev.preventDefault();
    const f = new FormData($("agent-form"));
    const body = {};
    for (const k of ["project", "cwd", "prompt", "file"]) if (f.get(k)) body[k] = f.get(k);
    const out = $("agent-blocks");
    out.replaceChildren();
    try {
      const d = await api("agent", body);
      for (const b of d.blocks) {
        const div = el("div", null, "block");
        div.dataset.event = b.event;
        div.append(el("h3", b.event));
        div.append(el("p", b.shell, "cmd"));
        div.append(el("h4", "The agent is given"));
        div.append(el("pre", b.context || "(nothing)", "context"));
        div.append(el("h4", "recall hook prints"));
        div.append(el("pre", b.printed || "(nothing)", "printed"));
        out.append(div);
      }
      say("");
    } catch (e) { say(e.message, true); }
  }

  // What recall status prints, and the blocks the hook injected, the newest first (the
  // injection log's entries as recall --json status gives them), each item a link.
  async function status() {
    const pre = $("status");
    const body = $("injections").querySelector("tbody");
    pre.textContent = "";
    body.replaceChildren();
    try {
      const d = await api("status", {});
      pre.textContent = d.text;
      const inj = d.status.injections;
      $("injections-note").textContent = inj.blocks
        ? inj.blocks + " logged, " + inj.chars + " characters in all; the newest " + inj.latest.length + ":"
        : "None logged.";
      for (const i of inj.latest) {
        const tr = el("tr");
        tr.append(el("td", i.at), el("td", i.event), el("td", i.session || ""), el("td", i.chars));
        const items = el("td", null, "items");
        i.items.forEach((id, n) => {
          if (n) items.append(" ");
          const a = el("a", "[" + id + "]", "id");
          a.href = "#";
          a.addEventListener("click", (ev) => { ev.preventDefault(); open(id); });
          items.append(a);
        });
        tr.append(items, el("td", i.ms));
        body.append(tr);
      }
    } catch (e) { say(e.message, true); }
  }

  async function start() {
    for (const b of document.querySelectorAll("nav button")) {
      b.addEventListener("click", () => tab(b.dataset.tab));
    }
    $("search-form").addEventListener("submit", search);
    $("agent-form").addEventListener("submit", agent);
    $("promote").addEventListener("click", () => mark("promote"));
    $("demote").addEventListener("click", () => mark("demote"));
    $("kind-apply").addEventListener("click", setKind);
    $("forget").addEventListener("click", askForget);
    $("confirm-yes").addEventListener("click", forget);
    $("confirm-no").addEventListener("click", () => { $("confirm").hidden = true; });
    $("transcript-more").addEventListener("click", async () => {
      try { if (current) await morePage(current.id); } catch (e) { say(e.message, true); }
    });
    $("status-refresh").addEventListener("click", status);
    try {
      const d = await api("kinds", {});
      $("library").textContent = d.library;
      if (d.read_only) say("This page only reads the library: " + d.read_only, true);
      for (const k of d.kinds) {
        $("kind-filter").append(new Option(k, k));
        $("kind-set").append(new Option(k, k));
      }
      document.body.dataset.ready = "1";
    } catch (e) { say(e.message, true); }
  }
  start();
})();
