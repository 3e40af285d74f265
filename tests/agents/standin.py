"""A local stand-in for a model API: Anthropic's Messages API or OpenAI's Responses API.

It listens on 127.0.0.1 only, on a free port, answers the agent's conversation requests
from a script of turns, and records every request it gets (conversation or not) as one
JSON line, so that a test can assert on exactly what reached the model.

A turn is one of
    {"tool": NAME, "input": {...}}        the model calls a tool with these arguments
    {"custom": NAME, "input": "text"}     a free-form tool (Codex's apply_patch)
    {"search": {...}}                     Codex's tool_search call with these arguments
    {"text": "..."}                       the model answers and ends its turn
or a function of the request body returning one of those (a turn that reads what the
agent sent, e.g. a command the session start named). When the script runs out the model
answers "done.".
"""

import http.server
import itertools
import json
import threading

# What the stand-in says to requests that are not the conversation (titles, quota
# checks, summaries): short, so that nothing in it can be mistaken for memory.
AUX_TEXT = "ok"
END_TEXT = "done."


class StandIn:
    """One API stand-in. api is "anthropic" or "openai"."""

    def __init__(self, api, record_path):
        if api not in ("anthropic", "openai"):
            raise ValueError(f"no API named {api!r}: anthropic or openai")
        self.api = api
        self.record_path = record_path
        self.lock = threading.Lock()
        self.script = []
        self.played = []
        self.label = ""
        self.ids = itertools.count(1)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"

    def play(self, label, turns):
        """The turns the next conversation requests get, in order; label marks the records."""
        with self.lock:
            self.label = label
            self.script = list(turns)

    def records(self, label=None):
        """Every recorded request (of one label when given), in the order they came."""
        out = []
        try:
            with open(self.record_path, encoding="utf-8") as f:
                for line in f:
                    rec = json.loads(line)
                    if label is None or rec["label"] == label:
                        out.append(rec)
        except FileNotFoundError:
            pass
        return out

    # -- serving ---------------------------------------------------------------------

    def _record(self, method, path, headers, body, conversation):
        with self.lock:
            rec = {"n": next(self.ids), "label": self.label, "method": method, "path": path,
                   "conversation": conversation, "headers": headers, "body": body}
            with open(self.record_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(rec) + "\n")

    def _next_turn(self, body):
        with self.lock:
            turn = self.script.pop(0) if self.script else {"text": END_TEXT}
            label = self.label
        if callable(turn):
            turn = turn(body)
        # The id of the tool call, in each API's form, so that a test finds its result.
        prefix = "toolu" if self.api == "anthropic" else "call"
        turn = dict(turn, call_id=f"{prefix}_{next(self.ids):06d}")
        with self.lock:
            self.played.append((label, turn))
        return turn

    def turns(self, label):
        """The turns played to the conversation requests of LABEL, each with its call_id."""
        with self.lock:
            return [turn for lab, turn in self.played if lab == label]

    def _is_conversation(self, path, body):
        """The agent's own loop: the request that offers the tools (others are side calls)."""
        if not isinstance(body, dict) or not body.get("tools"):
            return False
        if self.api == "anthropic":
            return path.split("?")[0] == "/v1/messages"
        return path.split("?")[0].endswith("/responses")

    def _handler(self):
        standin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _body(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    return json.loads(raw) if raw else None
                except ValueError:
                    return raw.decode("utf-8", "replace")

            def _send(self, status, ctype, data):
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                standin._record("GET", self.path, dict(self.headers), None, False)
                if "/models" in self.path:
                    # Model listings: an empty list, the agent keeps its own defaults.
                    payload = {"data": [], "models": [], "object": "list"}
                else:
                    payload = {}
                self._send(200, "application/json", json.dumps(payload).encode())

            def do_HEAD(self):
                standin._record("HEAD", self.path, dict(self.headers), None, False)
                self._send(200, "application/json", b"")

            def do_POST(self):
                body = self._body()
                conv = standin._is_conversation(self.path, body)
                standin._record("POST", self.path, dict(self.headers), body, conv)
                turn = standin._next_turn(body) if conv else {"text": AUX_TEXT}
                path = self.path.split("?")[0]
                if standin.api == "anthropic":
                    if path.endswith("/count_tokens"):
                        return self._send(200, "application/json", b'{"input_tokens": 100}')
                    if path != "/v1/messages":
                        return self._send(200, "application/json", b"{}")
                    stream = isinstance(body, dict) and body.get("stream")
                    model = body.get("model", "claude") if isinstance(body, dict) else "claude"
                    if stream:
                        return self._send(200, "text/event-stream",
                                          anthropic_sse(turn, model, standin.ids))
                    return self._send(200, "application/json",
                                      json.dumps(anthropic_message(turn, model, standin.ids))
                                      .encode())
                if not path.endswith("/responses"):
                    return self._send(200, "application/json", b"{}")
                self._send(200, "text/event-stream", openai_sse(turn, standin.ids))

        return Handler


# -- Anthropic Messages ---------------------------------------------------------------

def _sse(event, data):
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def anthropic_blocks(turn, ids):
    """The content blocks of a turn and its stop reason."""
    if "tool" in turn:
        block = {"type": "tool_use", "id": turn["call_id"], "name": turn["tool"],
                 "input": turn["input"]}
        return [block], "tool_use"
    return [{"type": "text", "text": turn["text"]}], "end_turn"


def anthropic_message(turn, model, ids):
    blocks, stop = anthropic_blocks(turn, ids)
    return {"id": f"msg_{next(ids):06d}", "type": "message", "role": "assistant",
            "model": model, "content": blocks, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 100, "output_tokens": 10}}


def anthropic_sse(turn, model, ids):
    blocks, stop = anthropic_blocks(turn, ids)
    msg = {"id": f"msg_{next(ids):06d}", "type": "message", "role": "assistant",
           "model": model, "content": [], "stop_reason": None, "stop_sequence": None,
           "usage": {"input_tokens": 100, "output_tokens": 1}}
    out = [_sse("message_start", {"type": "message_start", "message": msg})]
    for i, block in enumerate(blocks):
        if block["type"] == "tool_use":
            start = dict(block, input={})
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        out.append(_sse("content_block_start",
                        {"type": "content_block_start", "index": i, "content_block": start}))
        out.append(_sse("content_block_delta",
                        {"type": "content_block_delta", "index": i, "delta": delta}))
        out.append(_sse("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(_sse("message_delta", {"type": "message_delta",
                                      "delta": {"stop_reason": stop, "stop_sequence": None},
                                      "usage": {"output_tokens": 10}}))
    out.append(_sse("message_stop", {"type": "message_stop"}))
    return "".join(out).encode()


# -- OpenAI Responses -----------------------------------------------------------------

def openai_item(turn, ids):
    n = next(ids)
    if "tool" in turn:
        item = {"type": "function_call", "id": f"fc_{n:06d}", "call_id": turn["call_id"],
                "name": turn["tool"], "arguments": json.dumps(turn["input"])}
        if "namespace" in turn:
            item["namespace"] = turn["namespace"]
        return item
    if "custom" in turn:
        return {"type": "custom_tool_call", "id": f"ctc_{n:06d}", "call_id": turn["call_id"],
                "name": turn["custom"], "input": turn["input"]}
    if "search" in turn:
        return {"type": "tool_search_call", "id": f"ts_{n:06d}", "call_id": turn["call_id"],
                "status": "completed", "execution": "client", "arguments": turn["search"]}
    return {"type": "message", "id": f"msg_{n:06d}", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": turn["text"], "annotations": []}]}


def openai_sse(turn, ids):
    rid = f"resp_{next(ids):06d}"
    item = openai_item(turn, ids)
    added = dict(item)
    if item["type"] == "message":
        added["content"] = []
    out = [
        _sse("response.created", {"type": "response.created",
                                  "response": {"id": rid, "status": "in_progress"}}),
        _sse("response.output_item.added", {"type": "response.output_item.added",
                                            "output_index": 0, "item": added}),
    ]
    if item["type"] == "message":
        out.append(_sse("response.output_text.delta", {
            "type": "response.output_text.delta", "output_index": 0, "content_index": 0,
            "item_id": item["id"], "delta": turn["text"]}))
    out.append(_sse("response.output_item.done", {"type": "response.output_item.done",
                                                  "output_index": 0, "item": item}))
    out.append(_sse("response.completed", {"type": "response.completed", "response": {
        "id": rid, "status": "completed",
        "usage": {"input_tokens": 100, "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": 10, "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": 110}}}))
    return "".join(out).encode()
