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


BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
DJANGO = string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)"


def b64(data):
    return base64.b64encode(data).decode()


def django_key(first=None):
    """A key as Django's startproject makes it: 50 characters of its alphabet, any of
    which may come first, `$`, `%`, `@` and `*` included."""
    return (first or rng.choice(DJANGO)) + pick(DJANGO, 49)


def putty_key(escaped=False):
    version = rng.choice([2, 3])
    algo = rng.choice(["ssh-rsa", "ssh-ed25519"])
    public = [pick(B64, 64) for _ in range(rng.randint(2, 6))]
    private = [pick(B64, 64) for _ in range(rng.randint(1, 14))]
    lines = [f"PuTTY-User-Key-File-{version}: {algo}", "Encryption: none",
             f"Comment: {rng.choice(['rsa-key-20240311', 'deploy@ci', 'imported-openssh-key'])}",
             f"Public-Lines: {len(public)}", *public]
    lines += [f"Private-Lines: {len(private)}", *private, f"Private-MAC: {pick(HEX, 64 if version == 3 else 40)}"]
    return ("\\n" if escaped else "\n").join(lines)


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
    "putty-private-key": putty_key,
    "age-secret-key": lambda: f"AGE-SECRET-KEY-1{pick(BECH32, 58)}",
    "sentry-token": lambda: rng.choice([
        f"sntrys_{b64(json.dumps({'iat': rng.randint(1.6e9, 1.8e9), 'url': 'https://sentry.io', 'region_url': 'https://us.sentry.io', 'org': rng.choice(['acme', 'shop', 'infra'])}).encode()).rstrip('=')}_{pick(B64, 43)}",
        f"sntryu_{pick(HEX, 64)}",
    ]),
    "openrouter-key": lambda: f"sk-or-v1-{pick(HEX, 64)}",
    "google-oauth-secret": lambda: f"GOCSPX-{pick(B64URL, 28)}",
    "google-oauth-token": lambda: f"ya29.{rng.choice(['a0', 'c.'])}{pick(B64URL, rng.randint(100, 200))}".replace("c.", "c"),
    "azure-storage-key": lambda: b64(rng.randbytes(rng.choice([32, 64]))),
    "azure-sas-token": lambda: b64(rng.randbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D"),
    "sendgrid-key": lambda: f"SG.{pick(B64URL, 22)}.{pick(B64URL, 43)}",
    "mailgun-key": lambda: f"key-{pick(HEX, 32)}",
    "twilio-key": lambda: f"SK{pick(HEX, 32)}",
    "digitalocean-token": lambda: f"{rng.choice(['dop', 'doo', 'dor'])}_v1_{pick(HEX, 64)}",
    "shopify-token": lambda: f"{rng.choice(['shpat', 'shpca', 'shppa', 'shpss'])}_{pick(HEX, 32)}",
    "vault-token": lambda: f"hvs.{rng.choice([pick(B64URL, 24), 'CAESI' + pick(B64URL, 86)])}",
    "databricks-token": lambda: f"dapi{pick(HEX, 32)}{rng.choice(['', '-2', '-3'])}",
    "atlassian-token": lambda: f"ATATT3xFfGF0{pick(B64URL, 170)}={pick(HEX.upper(), 8)}",
    "linear-key": lambda: f"lin_api_{pick(ALNUM, 40)}",
    "docker-hub-token": lambda: f"dckr_pat_{pick(B64URL, 27)}",
    "grafana-token": lambda: rng.choice([
        f"glsa_{pick(ALNUM, 32)}_{pick(HEX, 8)}",
        f"glc_{b64(json.dumps({'o': str(rng.randint(1, 10**6)), 'n': 'stack-token', 'k': pick(ALNUM, 24), 'm': {'r': 'prod-us-east-0'}}).encode())}",
    ]),
    "new-relic-key": lambda: f"NRAK-{pick(UPPER_DIGITS, 27)}",
    "tailscale-key": lambda: f"tskey-{rng.choice(['auth', 'api', 'client'])}-k{pick(ALNUM, 10)}CNTRL-{pick(ALNUM, 33)}",
    "supabase-token": lambda: f"sbp_{pick(HEX, 40)}",
    "postman-key": lambda: f"PMAK-{pick(HEX, 24)}-{pick(HEX, 34)}",
    "pulumi-token": lambda: f"pul-{pick(HEX, 40)}",
    "groq-key": lambda: f"gsk_{pick(ALNUM, 52)}",
    "telegram-bot-token": lambda: f"{rng.randint(10**8, 10**10 - 1)}:AA{pick(B64URL, 33)}",
    "discord-bot-token": lambda: f"{b64(str(rng.randint(10**17, 10**19 - 1)).encode()).rstrip('=')}.{pick(B64URL, 6)}.{pick(B64URL, rng.choice([27, 38]))}",
    "cookie-header": lambda: rng.choice([
        f"sessionid={pick(string.ascii_lowercase + string.digits, 32)}; csrftoken={pick(ALNUM, 32)}",
        f"_gh_sess={pick(B64, 120)}; logged_in=yes",
        f"connect.sid=s%3A{pick(B64URL, 32)}.{pick(B64, 43)}",
        f"JSESSIONID={pick(HEX.upper(), 32)}",
    ]),
    "command-line-password": password,
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
                   '    "apiKey": "{s}"', "passphrase={s}",
                   # A value may start with any character, a sigil included: only a
                   # whole reference ($NAME, ${NAME}, %NAME%) is one.
                   ("DJANGO_SECRET_KEY='{s}'", lambda: django_key(rng.choice("$%@*"))),
                   ('password = "{s}"', lambda: "$" + password()),
                   ("DB_PASSWORD='{s}'", lambda: "@" + password()),
                   ('SECRET_KEY = "{s}"', django_key),
                   ('"password": "{s}",', lambda: rng.choice("%*") + password()),
                   # Names of keys that are secrets without saying password or token.
                   ("SECRET_KEY_BASE={s}", lambda: pick(HEX, 128)),
                   ("export JWT_SIGNING_KEY={s}", lambda: pick(ALNUM, 48)),
                   ('ENCRYPTION_KEY="{s}"', lambda: b64(rng.randbytes(32))),
                   ("export MYSQL_PWD={s}", password),
                   ("DB_PASS={s}", password),
                   ("RAILS_MASTER_KEY={s}", lambda: pick(HEX, 32))],
    "putty-private-key": ["$ cat ~/.ssh/deploy.ppk\n{s}\n$ chmod 600 ~/.ssh/deploy.ppk",
                          ('{{"file": "deploy.ppk", "content": "{s}"}}', lambda: putty_key(escaped=True)),
                          "deploy.ppk:\n{s}"],
    "azure-storage-key": ["DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey={s};EndpointSuffix=core.windows.net",
                          '  "AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName=fnacme;AccountKey={s}",',
                          "az storage blob upload --account-name acmeprod --account-key {s} -c backups -f db.bak",
                          "Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={s}",
                          "export AZURE_STORAGE_KEY={s}"],
    "azure-sas-token": ["https://acmeprod.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-04-01T00:00:00Z&st=2025-03-01T00:00:00Z&spr=https&sig={s}",
                        'azcopy copy ./dist "https://acmeweb.blob.core.windows.net/site?sv=2023-01-03&sp=rcwl&se=2025-06-30T12:00:00Z&sr=c&sig={s}" --recursive',
                        'curl -X PUT -T report.csv "https://acme.blob.core.windows.net/in/report.csv?sp=racwd&st=2025-02-01T09:00:00Z&se=2025-02-02T09:00:00Z&spr=https&sv=2022-11-02&sr=b&sig={s}"',
                        '"sasUrl": "https://acme.queue.core.windows.net/jobs?sv=2021-08-06&ss=q&srt=sco&sp=rwdlacup&se=2025-12-31T23:59:59Z&sig={s}"'],
    "cookie-header": ['curl -H "Cookie: {s}" https://app.acme.dev/admin/',
                      "> Cookie: {s}",
                      "Set-Cookie: {s}",
                      'headers = {{"Cookie": "{s}"}}',
                      "curl --cookie '{s}' https://intranet.acme.lan/app"],
    "command-line-password": ["curl -u admin:{s} https://api.acme.dev/v1/users",
                              "curl -fsS --user 'ci-bot:{s}' https://nexus.acme.lan/service/rest/v1/status",
                              'curl -u "jenkins:{s}" -X POST https://ci.acme.dev/job/deploy/build',
                              "mysql -h db.internal -u app -p{s} shop -e 'select 1'",
                              "mysqldump -uroot -p'{s}' --all-databases > all.sql",
                              "sshpass -p '{s}' ssh -o StrictHostKeyChecking=no deploy@10.0.4.12 'systemctl restart api'",
                              "sshpass -p {s} rsync -az ./dist/ web@10.0.4.13:/srv/www/",
                              "docker login -u ci -p {s} registry.acme.io",
                              "podman login quay.io --username bot --password {s}",
                              'docker login -p "{s}" -u deploy ghcr.io'],
    "telegram-bot-token": ANYWHERE + ['curl -s "https://api.telegram.org/bot{s}/sendMessage" -d chat_id=-1001234567 -d text=deployed'],
    "discord-bot-token": ANYWHERE + ['requests.get(url, headers={{"Authorization": "Bot {s}"}})'],
    "vault-token": ANYWHERE + ["vault login {s}", "export VAULT_TOKEN={s}"],
}
# Kinds that a name in front of them would also catch are set in neutral lines too.
SELF_EVIDENT = [k for k in MAKERS if k not in CONTEXTS]


def secret_lines(per_kind):
    out = []
    for kind, make in MAKERS.items():
        contexts = CONTEXTS.get(kind, ANYWHERE)
        # At least per_kind secrets, and each position at least twice, as often as any.
        n = max(per_kind, 2 * len(contexts))
        n = -(-n // len(contexts)) * len(contexts)
        for i in range(n):
            template = contexts[i % len(contexts)]
            if isinstance(template, tuple):
                template, maker = template
                s = maker()
            else:
                s = make()
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
    # A cursor over a listing is named token and is base64, and opens nothing.
    "page-token": [lambda: f'next_page_token = "{page_token()}"',
                   lambda: f'{{"files": [], "nextPageToken": "{page_token()}"}}',
                   lambda: f'"NextToken": "{b64(json.dumps({"nextToken": None, "boto_truncate_amount": rng.randint(1, 99)}).encode())}"',
                   lambda: f'curl "https://www.googleapis.com/drive/v3/files?pageToken={page_token()}&pageSize=100"',
                   lambda: f"continuation_token: {page_token()}",
                   lambda: f"page_token='{page_token()}'"],
    # File names made of a token-like stem: weights, caches, build outputs.
    "file-name": [lambda: f"loading weights from ./models/sk-{pick(ALNUM, 40)}.bin",
                  lambda: f"~/.cache/lm/sk-{pick(ALNUM, 32)}-q4_0.gguf",
                  lambda: f"saved hf_{pick(ALNUM, 34)}.safetensors (1.2 GB)",
                  lambda: f"cp build/key-{pick(HEX, 32)}.json /tmp/",
                  lambda: f"wrote dist/dapi{pick(HEX, 32)}.whl"],
    # AWS's documentation's keys.
    "documented-example": [lambda: "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
                           lambda: "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                           lambda: "export AWS_ACCESS_KEY_ID=AKIAI44QH8DHBEXAMPLE",
                           lambda: "AWS_SECRET_ACCESS_KEY=je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
                           lambda: '"AccessKeyId": "ASIAIOSFODNN7EXAMPLE",'],
    # Whole references, which name where the secret is.
    "reference": [lambda: 'password = "$DB_PASSWORD"', lambda: 'DB_PASSWORD="${DB_PASSWORD:-}"',
                  lambda: 'TOKEN="$(vault kv get -field=token secret/ci)"', lambda: "set DB_PASSWORD=%DB_PASSWORD%",
                  lambda: 'token: "${{ secrets.DEPLOY_TOKEN }}"', lambda: 'password = "%(db_password)s" % config',
                  lambda: 'password: "{{ vault_db_password }}"', lambda: 'api_key = "{api_key}"',
                  lambda: "client_secret: '<client secret from the console>'", lambda: 'PGPASSWORD="$PGPASSWORD" psql -h db shop',
                  lambda: 'curl -u "$CI_USER:$CI_TOKEN" https://nexus.acme.lan/', lambda: "mysql -u root -p\"$MYSQL_ROOT_PASSWORD\" -e 'show databases'",
                  lambda: 'sshpass -p "$SSHPASS" ssh deploy@10.0.4.12', lambda: 'docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" $CI_REGISTRY',
                  lambda: "secret: '@Microsoft.KeyVault(SecretUri=https://acme.vault.azure.net/secrets/db/)'"],
    # Command lines whose -u and -p are no password.
    "command-line": [lambda: "docker run -u 1000:1000 -v $PWD:/src ghcr.io/acme/build",
                     lambda: "mysql -h 127.0.0.1 -P 3306 -u root -p shop",
                     lambda: "curl -u admin: https://localhost:8080/api",
                     lambda: "sshpass -f ~/.ssh/pw.txt ssh deploy@10.0.4.12",
                     lambda: 'echo "$TOKEN" | docker login ghcr.io -u ci --password-stdin',
                     lambda: "mysqldump --single-transaction -p shop > shop.sql",
                     lambda: "scp -P 2222 -p build.tar.gz deploy@10.0.4.12:/srv",
                     lambda: f"pg_dump -h db -p 5432 -U app shop > shop-{rng.randint(1, 31)}.sql",
                     lambda: "curl -sS -X POST https://api.acme.dev/v1/runs -d '{\"dry_run\": true}'"],
    # Words and names with a token's prefix but not its shape.
    "near-prefix": [lambda: "pip install scikit-learn sk-video", lambda: "a key-value store with TTLs",
                    lambda: 'SG.set_option("display.width", 120)', lambda: "git checkout -b dapi-migration",
                    lambda: f"lin_api_version = {rng.randint(1, 9)}", lambda: "hvs.mean(axis=0)",
                    lambda: "sk-ant-api03 keys are rotated monthly", lambda: "glc_scale = 0.5",
                    lambda: "Cookie consent banner: shown on first visit", lambda: 'cookie: {"sameSite": "lax"}',
                    lambda: 'res.cookie("session", value, { httpOnly: true })',
                    lambda: f"uptime {rng.randint(10, 23)}:{rng.randint(10, 59)}:{rng.randint(10, 59)}, {rng.randint(1000000000, 1999999999)}:{rng.randint(1000000000, 1999999999)}",
                    lambda: "com.example.billing.InvoiceServiceConfiguration.loadDefaults()"],
}


def page_token():
    # Protobuf bytes, as Google's APIs encode their page tokens.
    return b64url(b"\n \n" + rng.randbytes(rng.randint(24, 60)))


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
