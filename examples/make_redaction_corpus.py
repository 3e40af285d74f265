#!/usr/bin/env python3
"""Writes examples/redaction_corpus.jsonl: fake secrets of every kind `recall` redacts,
generated to their real shapes and set in realistic lines, and look-alikes that must
stay. Deterministic (a fixed seed): running it again writes the same file.

Each line: {"text", "kind", "start", "end"} for a secret, where text[start:end] (UTF-8
bytes) is what becomes [redacted]; {"text", "kind": null, "category"} for a look-alike.

    python3 examples/make_redaction_corpus.py > examples/redaction_corpus.jsonl
"""
import base64
import json
import random
import string

rng = random.Random(27)
ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
B64URL = ALNUM + "-_"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
PASSWORD = ALNUM + "!#%^*_-+="


def pick(chars, n):
    return "".join(rng.choice(chars) for _ in range(n))


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def password():
    first = rng.choice(string.ascii_letters)
    return first + pick(PASSWORD, rng.randint(9, 22))


def human_password():
    words = ["Summer", "Winter", "Tiger", "Falcon", "Marble", "Copper", "Orchid"]
    return f"{rng.choice(words)}{rng.randint(1990, 2030)}{rng.choice('!#%*')}"


# Secret makers, one per kind; each returns the secret as it appears in the line.
def private_key(escaped):
    label = rng.choice(["RSA ", "EC ", "OPENSSH ", "", "ENCRYPTED ", "DSA "])
    body = [pick(B64, 64) for _ in range(rng.randint(3, 8))] + [pick(B64, 20) + "=="]
    nl = "\\n" if escaped else "\n"
    return nl.join(
        [f"-----BEGIN {label}PRIVATE KEY-----"] + body + [f"-----END {label}PRIVATE KEY-----"]
    )


def jwt():
    header = b64url(json.dumps({"alg": rng.choice(["HS256", "RS256"]), "typ": "JWT"}).encode())
    claims = {"sub": str(rng.randint(1, 10**9)), "iat": rng.randint(1.6e9, 1.8e9),
              "role": rng.choice(["admin", "user", "service"])}
    return f"{header}.{b64url(json.dumps(claims).encode())}.{pick(B64URL, 43)}"


MAKERS = {
    "private-key": lambda: private_key(rng.random() < 0.4),
    "jwt": jwt,
    "anthropic-key": lambda: f"sk-ant-{rng.choice(['api03', 'admin01'])}-{pick(B64URL, 93)}AA",
    "openai-key": lambda: rng.choice([
        f"sk-proj-{pick(B64URL, rng.randint(100, 156))}",
        f"sk-{pick(ALNUM, 20)}T3BlbkFJ{pick(ALNUM, 20)}",
        f"sk-svcacct-{pick(B64URL, 120)}",
    ]),
    "github-token": lambda: rng.choice([
        f"{rng.choice(['ghp', 'gho', 'ghu', 'ghs', 'ghr'])}_{pick(ALNUM, 36)}",
        f"github_pat_{pick(ALNUM, 22)}_{pick(ALNUM, 59)}",
    ]),
    "gitlab-token": lambda: f"{rng.choice(['glpat', 'gldt', 'glrt'])}-{pick(B64URL, 20)}",
    "slack-token": lambda: rng.choice([
        f"xoxb-{pick(string.digits, 11)}-{pick(string.digits, 13)}-{pick(ALNUM, 24)}",
        f"xoxp-{pick(string.digits, 11)}-{pick(string.digits, 11)}-{pick(string.digits, 13)}-{pick(HEX, 32)}",
        f"https://hooks.slack.com/services/T{pick(UPPER_DIGITS, 8)}/B{pick(UPPER_DIGITS, 10)}/{pick(ALNUM, 24)}",
    ]),
    "stripe-key": lambda: rng.choice([
        f"sk_live_{pick(ALNUM, rng.randint(24, 99))}",
        f"rk_test_{pick(ALNUM, rng.randint(24, 99))}",
        f"whsec_{pick(ALNUM, 32)}",
    ]),
    "npm-token": lambda: f"npm_{pick(ALNUM, 36)}",
    "pypi-token": lambda: f"pypi-AgEIcHlwaS5vcmc{pick(B64URL, rng.randint(60, 150))}",
    "huggingface-token": lambda: f"hf_{pick(string.ascii_letters, 34)}",
    "google-api-key": lambda: f"AIza{pick(B64URL, 35)}",
    "aws-access-key-id": lambda: f"{rng.choice(['AKIA', 'ASIA'])}{pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}",
    "aws-secret-access-key": lambda: pick(B64, 40),
    "authorization-header": lambda: rng.choice(
        [pick(string.ascii_letters, 1) + pick(ALNUM + "._-", rng.randint(31, 63)),
         base64.b64encode(f"deploy:{password()}".encode()).decode()]
    ),
    "connection-string": password,
    "url-password": password,
    "assignment": lambda: rng.choice([password(), human_password(), pick(HEX, 32)]),
}

# Lines around a token that stands alone: {s} is the secret.
ANYWHERE = [
    "export TOKEN={s}",
    'curl -s https://api.example.com/v1/items -H "X-Api-Key: {s}"',
    "2025-03-04T05:06:07Z ERROR auth failed for credential {s} (401 Unauthorized)",
    '{{"event": "login", "credential": "{s}", "ok": false}}',
    "const client = new Client('{s}');",
    "client = Client(\"{s}\")",
    "$ gh auth login --with-token <<< {s}",
    "warning: found {s} in config/settings.yml line 12",
    "docker run -e CREDENTIAL={s} ghcr.io/acme/api:1.4.2",
    "I pasted the wrong key earlier ({s}), please rotate it",
]

CONTEXTS = {
    "private-key": ["$ cat ~/.ssh/id_deploy\n{s}\n$ chmod 600 ~/.ssh/id_deploy",
                    '{{"type": "service_account", "private_key": "{s}", "client_email": "ci@acme.iam"}}',
                    "key.pem:\n{s}"],
    "aws-secret-access-key": ["aws_secret_access_key = {s}",
                              "export AWS_SECRET_ACCESS_KEY={s}",
                              '"SecretAccessKey": "{s}",',
                              "AWS_SECRET_ACCESS_KEY='{s}' aws s3 ls s3://acme-backups",
                              "[default]\naws_access_key_id = AKIA****************\naws_secret_access_key={s}"],
    "authorization-header": ['curl -H "Authorization: Bearer {s}" https://api.acme.dev/me',
                             "> Authorization: Basic {s}",
                             'headers = {{"Authorization": "Token {s}"}}',
                             "GET /v2/ HTTP/1.1\nHost: registry.acme.io\nAuthorization: Bearer {s}"],
    "connection-string": ["psql postgres://app:{s}@db.internal:5432/shop",
                          'DATABASE_URL="postgresql://admin:{s}@10.0.3.7/prod?sslmode=require"',
                          "mongosh mongodb+srv://reader:{s}@cluster0.ab1cd.mongodb.net/test",
                          "REDIS_URL=redis://default:{s}@cache:6379/0",
                          'conn = "Server=sql01;Database=Orders;User Id=sa;Password={s};TrustServerCertificate=true"',
                          "jdbc:mysql://etl:{s}@mysql.acme.lan:3306/warehouse"],
    "url-password": ["git clone https://deploy:{s}@git.acme.dev/platform/api.git",
                     "fatal: unable to access 'https://bot:{s}@github.com/acme/site.git/': 403",
                     "pip install --index-url https://ci:{s}@pypi.acme.dev/simple acme-tools",
                     "wget ftp://backup:{s}@files.acme.dev/dumps/latest.sql.gz"],
    "assignment": ["DB_PASSWORD={s}", "SECRET_KEY='{s}'", "  password: {s}",
                   '"client_secret": "{s}",', 'api_key = "{s}"', "mysql -u root --password={s} shop",
                   'token = "{s}"', "redis-cli --pass x --password {s}",
                   "//registry.npmjs.org/:_authToken={s}", "export VAULT_TOKEN={s}",
                   '    "apiKey": "{s}"', "passphrase={s}"],
}
# Kinds that a name in front of them would also catch are set in neutral lines too.
SELF_EVIDENT = [k for k in MAKERS if k not in CONTEXTS]


def secret_lines(per_kind):
    out = []
    for kind, make in MAKERS.items():
        for i in range(per_kind):
            s = make()
            contexts = CONTEXTS.get(kind, ANYWHERE)
            template = contexts[i % len(contexts)]
            before, after = template.split("{s}")
            before = before.replace("{{", "{").replace("}}", "}")
            after = after.replace("{{", "{").replace("}}", "}")
            text = before + s + after
            start = len(before.encode())
            out.append({"text": text, "kind": kind, "start": start, "end": start + len(s.encode())})
    return out


def git_sha():
    return pick(HEX, 40)


def uuid():
    h = pick(HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


LOOKALIKES = {
    "git-sha": [lambda: f"commit {git_sha()}", lambda: f"git checkout {git_sha()}",
                lambda: f"HEAD is now at {git_sha()[:7]} Fix flaky retry test",
                lambda: f"https://github.com/acme/api/commit/{git_sha()}",
                lambda: f"Merge: {git_sha()[:7]} {git_sha()[:7]}"],
    "uuid": [lambda: f"request_id={uuid()} status=200 duration=35ms",
             lambda: f'{{"id": "{uuid()}", "kind": "session"}}',
             lambda: f"Created volume {uuid()}",
             lambda: f"session_id: {uuid()}"],
    "content-hash": [lambda: f"sha256:{pick(HEX, 64)}",
                     lambda: f"{pick(HEX, 64)}  acme-cli-2.3.1-x86_64.tar.gz",
                     lambda: f'"integrity": "sha512-{base64.b64encode(rng.randbytes(64)).decode()}"',
                     lambda: f"Digest: sha256:{pick(HEX, 64)}",
                     lambda: f"md5sum: {pick(HEX, 32)}",
                     lambda: f'checksum = "{pick(HEX, 64)}"'],
    "base64-image": [lambda: f'<img src="data:image/png;base64,{base64.b64encode(rng.randbytes(rng.randint(200, 900))).decode()}">',
                     lambda: f'{{"type": "image", "source": {{"type": "base64", "media_type": "image/jpeg", "data": "{base64.b64encode(rng.randbytes(600)).decode()}"}}}}'],
    "long-identifier": [lambda: "def validate_access_token_expiry_and_refresh_if_needed(self, session):",
                        lambda: "AbstractSingletonProxyFactoryBeanConfigurationRegistryPostProcessor",
                        lambda: f"test_{'_'.join(rng.choice(['token', 'secret', 'password', 'rotation', 'refresh', 'expired', 'handler']) for _ in range(5))}",
                        lambda: f"const {''.join(w.capitalize() for w in rng.sample(['api', 'key', 'manager', 'secret', 'store', 'provider', 'factory'], 5))} = require('./lib');",
                        lambda: f"{pick(string.ascii_lowercase, 12)}_{pick(string.ascii_lowercase, 10)}_{pick(string.ascii_lowercase, 14)}_{pick(string.ascii_lowercase, 9)}"],
    "version": [lambda: f"v{rng.randint(0, 30)}.{rng.randint(0, 99)}.{rng.randint(0, 99)}-rc.{rng.randint(1, 9)}+build.{rng.randint(1, 999)}",
                lambda: f"Python {rng.randint(3, 3)}.{rng.randint(8, 13)}.{rng.randint(0, 12)}",
                lambda: f"node v{rng.randint(16, 22)}.{rng.randint(0, 20)}.{rng.randint(0, 9)} npm {rng.randint(8, 10)}.{rng.randint(0, 9)}.{rng.randint(0, 9)}",
                lambda: f"rustc 1.{rng.randint(70, 90)}.0 ({pick(HEX, 9)} 2025-0{rng.randint(1, 9)}-1{rng.randint(0, 9)})",
                lambda: f'"version": "{rng.randint(0, 9)}.{rng.randint(0, 9)}.{rng.randint(0, 99)}"'],
    "key-fingerprint": [lambda: f"ED25519 key fingerprint is SHA256:{b64url(rng.randbytes(32))}.",
                        lambda: f"RSA key fingerprint is MD5:{':'.join(pick(HEX, 2) for _ in range(16))}.",
                        lambda: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{base64.b64encode(rng.randbytes(32)).decode()[:43]} dev@laptop",
                        lambda: f"gpg: using RSA key {pick(HEX.upper(), 40)}",
                        lambda: f"Primary key fingerprint: {' '.join(pick(HEX.upper(), 4) for _ in range(10))}"],
    "code-reference": [lambda: 'token = os.environ["GITHUB_TOKEN"]', lambda: "password = getpass.getpass()",
                       lambda: "const apiKey = process.env.OPENAI_API_KEY;", lambda: "api_key: Optional[str] = None",
                       lambda: f"max_tokens={rng.choice([256, 1024, 4096, 8192])}", lambda: '"token_type": "Bearer",',
                       lambda: "NPM_TOKEN: ${{ secrets.NPM_TOKEN }}", lambda: 'curl -H "Authorization: Bearer $TOKEN" https://api.acme.dev',
                       lambda: "TOKEN=$(cat ~/.config/acme/token)", lambda: "password: <your password here>",
                       lambda: '"password": null,', lambda: "secret_key = settings.SECRET_KEY",
                       lambda: f"input_tokens: {rng.randint(100, 99999)}", lambda: "token = request_token",
                       lambda: "Bearer tokens expire after one hour; refresh them with the refresh token."],
    "url-without-password": [lambda: "ssh://git@github.com/acme/api.git", lambda: f"postgres://localhost:5432/{pick(string.ascii_lowercase, 6)}",
                             lambda: "https://user@bitbucket.org/acme/site.git", lambda: f"http://[::1]:{rng.randint(1024, 65535)}/health",
                             lambda: f"https://example.com/search?q={pick(string.ascii_lowercase, 8)}&page={rng.randint(1, 9)}",
                             lambda: "git@github.com:acme/infra.git"],
    "log-id": [lambda: f"traceparent: 00-{pick(HEX, 32)}-{pick(HEX, 16)}-01",
               lambda: f"container {pick(HEX, 12)} exited with code 137",
               lambda: f"build {pick(ALNUM, 20)} finished in 3m12s",
               lambda: f"AWS arn:aws:iam::{pick(string.digits, 12)}:role/deploy-{pick(string.ascii_lowercase, 5)}",
               lambda: f'"UserId": "AIDA{pick(UPPER_DIGITS, 17)}"',
               lambda: f"x-request-id: {pick(ALNUM, 26)}"],
}


def lookalike_lines(per_category):
    out = []
    for category, makers in LOOKALIKES.items():
        for i in range(per_category):
            out.append({"text": makers[i % len(makers)](), "kind": None, "category": category})
    return out


def main():
    lines = secret_lines(20) + lookalike_lines(40)
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))


if __name__ == "__main__":
    main()
