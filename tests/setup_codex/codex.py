#!@PYTHON@
"""A stand-in for the `codex` program, for `recall setup codex`'s tests: `codex --version`
and `codex app-server`'s `initialize` and `hooks/list` as Codex 0.169.0 answers them. Keys
and hashes follow Codex's rule (tests/agents/codex_trust.py checks the same rule against
the real Codex): the key is `FILE:event_label:group:handler`, the hash SHA-256 of the
compact JSON, keys sorted, of the hook's normalized identity; a hook is trusted when the
user's config.toml records that hash under `[hooks.state."KEY"] trusted_hash`.

Set by the test in the lines below: the version, and `refuse` (hooks/list answers an
error). Each run is logged beside this file (`codex.log`)."""
import hashlib, json, os, sys, tomllib

VERSION = "@VERSION@"
REFUSE = "@REFUSE@" == "yes"
HERE = os.path.dirname(os.path.abspath(__file__))
MATCHED = {"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
           "SessionStart", "SubagentStart", "SubagentStop"}


def log(line):
    with open(os.path.join(HERE, "codex.log"), "a") as f:
        f.write(line + "\n")


def label(event):
    return "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(event))


def digest(event, matcher, handler):
    t = handler.get("timeout")
    if event == "SessionEnd":
        t = min(max(1 if t is None else t, 1), 3)
    else:
        t = max(600 if t is None else t, 1)
    hook = {"type": "command", "command": handler["command"], "timeout": t,
            "async": bool(handler.get("async", False))}
    identity = {"event_name": label(event), "hooks": [hook]}
    if matcher is not None and event in MATCHED:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def load_toml(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        return {}


def layer(folder, source, states, out):
    hooks_json = os.path.join(folder, "hooks.json")
    config = os.path.join(folder, "config.toml")
    found = []
    if os.path.isfile(hooks_json):
        with open(hooks_json) as f:
            found.append((hooks_json, json.load(f).get("hooks", {})))
    tables = load_toml(config).get("hooks", {})
    found.append((config, {k: v for k, v in tables.items() if k != "state"}))
    for path, events in found:
        for event, groups in events.items():
            for g, group in enumerate(groups):
                for h, handler in enumerate(group.get("hooks", [])):
                    key = "%s:%s:%d:%d" % (path, label(event), g, h)
                    current = digest(event, group.get("matcher"), handler)
                    trusted = states.get(key, {}).get("trusted_hash")
                    status = ("untrusted" if trusted is None
                              else "trusted" if trusted == current else "modified")
                    out.append({"key": key, "eventName": event[0].lower() + event[1:],
                                "handlerType": "command", "command": handler["command"],
                                "matcher": group.get("matcher"), "sourcePath": path,
                                "source": source, "currentHash": current,
                                "trustStatus": status, "enabled": True, "isManaged": False})


def hooks_list(cwd):
    home = os.environ.get("CODEX_HOME") or os.path.join(os.environ["HOME"], ".codex")
    user = load_toml(os.path.join(home, "config.toml"))
    features = user.get("features", {})
    if features.get("hooks") is False or features.get("codex_hooks") is False:
        return []
    states = user.get("hooks", {}).get("state", {})
    out = []
    layer(home, "user", states, out)
    root = cwd
    while root != "/" and not os.path.exists(os.path.join(root, ".git")):
        root = os.path.dirname(root)
    trusted = user.get("projects", {}).get(root, {}).get("trust_level") == "trusted"
    if os.path.isdir(os.path.join(root, ".codex")) and trusted:
        layer(os.path.join(root, ".codex"), "project", states, out)
    return out


def main():
    if sys.argv[1:] == ["--version"]:
        log("--version")
        print("codex-cli " + VERSION)
        return
    if sys.argv[1:] != ["app-server"]:
        sys.exit(2)
    for line in sys.stdin:
        message = json.loads(line)
        method, id_ = message.get("method"), message.get("id")
        if method == "initialize":
            answer = {"result": {"userAgent": "stand-in/" + VERSION}}
        elif method == "hooks/list":
            cwd = message["params"]["cwds"][0]
            log("hooks/list " + cwd)
            if REFUSE:
                answer = {"error": {"code": -32600, "message": "hooks are unavailable here"}}
            else:
                answer = {"result": {"data": [{"cwd": cwd, "hooks": hooks_list(cwd),
                                               "warnings": [], "errors": []}]}}
        else:
            continue
        answer.update({"jsonrpc": "2.0", "id": id_})
        print(json.dumps(answer), flush=True)


main()
