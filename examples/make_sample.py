"""Writes examples/sample.jsonl: the bundled sample library (deterministic).

A few hundred items an agent memory would hold: several projects and sources, two years
of dates, decisions that are later reversed, error messages, Spanish and accented text.
Run: python3 examples/make_sample.py > examples/sample.jsonl
"""
import json
import random

rng = random.Random(20251129)

# Hand-written stories: (date, source, project, title, summary, questions, atoms)
STORIES = [
    ("2024-02-10T09:00:00Z", "agent-claude", "shop", "Add the analytics script to the shop",
     "Added the analytics script to every page of the shop, loaded before the consent banner.",
     ["How do we measure conversion on the shop?"], ["analytics.js", "templates/base.html"]),
    ("2024-06-02T15:30:00Z", "agent-claude", "shop", "Consent banner: block analytics until accepted",
     "The analytics script now waits for consent; the banner stores the choice for a year.",
     ["Is the analytics script GDPR compliant?"], ["consent.js", "cookie: consent_v2"]),
    ("2025-01-20T11:00:00Z", "agent-codex", "shop", "Decision: remove the analytics script entirely",
     "After the audit we decided to remove the analytics script and the consent banner with it; server logs are enough.",
     ["When did we decide to remove the analytics script?", "Why was analytics removed?"], ["analytics.js (deleted)"]),
    ("2024-03-05T10:00:00Z", "human-notes", "api", "Decision: move the API database to PostgreSQL",
     "SQLite hit 'database is locked' under concurrent writers; we chose PostgreSQL for the API.",
     ["Which database does the API use?"], ["database is locked", "SQLITE_BUSY"]),
    ("2025-04-14T09:20:00Z", "human-notes", "api", "Decision reversed: back to SQLite with WAL for the API",
     "PostgreSQL was more than we need; SQLite in WAL mode with busy_timeout handles our writers. Reverting the March 2024 decision.",
     ["Which database does the API use?", "Why did we go back to SQLite?"], ["PRAGMA journal_mode=WAL", "busy_timeout=5000"]),
    ("2024-11-05T08:15:00Z", "agent-claude", "api", "Fix \"database is locked\" errors in the importer",
     "The nightly importer failed with 'database is locked'; set busy_timeout to 5 s and batch writes in one transaction.",
     ["Why does the importer fail at night?"], ["sqlite3.OperationalError: database is locked", "importer/nightly.py"]),
    ("2024-07-22T13:45:00Z", "agent-codex", "api", "ECONNREFUSED 127.0.0.1:5432 in CI",
     "Integration tests could not reach PostgreSQL: the service container started after the tests. Added a health check.",
     ["Why do integration tests fail in CI?"], ["Error: connect ECONNREFUSED 127.0.0.1:5432", ".github/workflows/ci.yml"]),
    ("2024-09-09T16:00:00Z", "agent-claude", "mobile-app", "TypeError: Cannot read properties of undefined (reading 'map')",
     "The order list crashed when the API returned no items field; default to an empty list.",
     ["Why does the order list crash?"], ["TypeError: Cannot read properties of undefined (reading 'map')", "src/screens/Orders.tsx"]),
    ("2024-10-01T10:30:00Z", "agent-codex", "data-pipeline", "ModuleNotFoundError: No module named 'yaml'",
     "The pipeline image lacked PyYAML after the base image upgrade; pinned pyyaml in requirements.txt.",
     ["Why did the pipeline stop importing configs?"], ["ModuleNotFoundError: No module named 'yaml'", "requirements.txt"]),
    ("2025-02-18T12:00:00Z", "agent-claude", "infra", "Pods OOMKilled after the image upgrade",
     "The worker pods were OOMKilled at 512Mi; raised the limit to 1Gi and fixed a leak in the thumbnailer.",
     ["Why do workers restart?"], ["OOMKilled", "exit code 137", "k8s/worker.yaml"]),
    ("2024-12-03T17:10:00Z", "agent-codex", "api", "error[E0502]: cannot borrow `cache` as mutable",
     "The Rust rate limiter kept an immutable borrow across the refresh; split the lookup from the update.",
     ["How was the borrow checker error in the rate limiter fixed?"], ["error[E0502]: cannot borrow `cache` as mutable because it is also borrowed as immutable", "src/ratelimit.rs"]),
    ("2025-03-11T08:00:00Z", "agent-claude", "docs-site", "CORS policy blocks the search widget",
     "Access to fetch at the search API was blocked by CORS policy: No 'Access-Control-Allow-Origin' header. Added the docs origin.",
     ["Why is the docs search widget empty?"], ["blocked by CORS policy", "Access-Control-Allow-Origin"]),
    ("2024-04-19T14:00:00Z", "human-notes", "infra", "fatal: refusing to merge unrelated histories",
     "The infra repository was re-initialised by mistake; merged with --allow-unrelated-histories after a review.",
     ["What happened to the infra repository history?"], ["fatal: refusing to merge unrelated histories"]),
    ("2024-05-02T09:00:00Z", "human-notes", "shop", "Reunión: decidimos usar Stripe en lugar de PayPal",
     "Para los pagos de la tienda elegimos Stripe: mejores comisiones y la API es más sencilla.",
     ["¿Qué pasarela de pago usa la tienda?"], ["stripe", "checkout/pagos.py"]),
    ("2025-06-10T10:00:00Z", "human-notes", "shop", "Volvemos a PayPal para los pagos",
     "Stripe no admite la cuenta de la empresa en el nuevo país; la decisión de mayo de 2024 se revierte y volvemos a PayPal.",
     ["¿Qué pasarela de pago usa la tienda?", "¿Por qué dejamos Stripe?"], ["paypal", "checkout/pagos.py"]),
    ("2025-02-01T10:00:00Z", "agent-claude", "data-pipeline", "Migración de la base de datos: occurred_at a UTC",
     "Nueva columna occurred_at normalizada a UTC; las fechas sin zona horaria se leen como UTC.",
     ["¿Cuándo migramos las fechas a UTC?"], ["0007_occurred_at_utc.sql"]),
    ("2024-08-14T11:30:00Z", "agent-codex", "shop", "Corregir el cálculo del IVA en el carrito",
     "El IVA se calculaba sobre el precio con descuento dos veces; ahora se aplica una sola vez al total.",
     ["¿Por qué el IVA del carrito estaba mal?"], ["cart/iva.py", "test_iva_descuento"]),
    ("2024-10-28T09:45:00Z", "agent-claude", "docs-site", "Traducción de la página de pago al español",
     "Página de pago traducida; los términos legales los revisó el equipo jurídico.",
     [], ["locales/es/checkout.json"]),
    ("2025-05-05T15:00:00Z", "agent-codex", "mobile-app", "Zürich office: naïve datetime bug in the calendar",
     "Meetings for the Zürich office showed one hour off: a naïve datetime was compared with an aware one. Use zoneinfo everywhere.",
     ["Why are Zürich meetings off by an hour?"], ["TypeError: can't compare offset-naive and offset-aware datetimes"]),
    ("2024-12-20T12:00:00Z", "human-notes", "shop", "Café menu and crème brûlée pages for the holiday campaign",
     "Holiday landing pages: café menu, crème brûlée recipe, gift cards. Accents must survive the slug generator.",
     ["Where are the holiday landing pages?"], ["pages/cafe-menu", "pages/creme-brulee"]),
    ("2025-07-01T09:00:00Z", "agent-claude", "infra", "Decision: adopt Terraform for DNS records",
     "DNS records move from the registrar's UI to Terraform so changes are reviewed.",
     ["How are DNS records managed?"], ["dns.tf"]),
    ("2025-09-15T09:00:00Z", "agent-codex", "infra", "Decision reversed: DNS back to the registrar UI",
     "The Terraform provider for our registrar is unmaintained and broke twice; DNS goes back to the registrar UI with a change log.",
     ["How are DNS records managed?", "Why did we drop Terraform for DNS?"], ["dns.tf (removed)"]),
    ("2024-01-15T10:00:00Z", "agent-claude", "api", "Rate limiting with a token bucket",
     "Per-key token bucket, 100 requests a minute, burst 20; responses carry Retry-After.",
     ["How does the API rate limit?"], ["src/ratelimit.rs", "429 Too Many Requests"]),
    ("2025-08-08T14:20:00Z", "agent-claude", "api", "Rate limits raised for partners",
     "Partners get 1000 requests a minute; the token bucket reads limits per plan.",
     ["What are the partner rate limits?"], ["plans.toml"]),
    ("2025-10-02T10:00:00Z", "ci-bot", "api", "panic: runtime error: index out of range [3] with length 3",
     "The Go webhook relay panicked on an empty header list; guarded the index.",
     ["Why did the webhook relay crash?"], ["panic: runtime error: index out of range [3] with length 3", "relay/headers.go"]),
    ("2025-11-03T09:30:00Z", "agent-claude", "mobile-app", "Push notifications: migrate to the v1 API",
     "The legacy push API shuts down; notifications now use the v1 HTTP API with service-account tokens.",
     ["Which push API does the app use?"], ["fcm v1", "push/sender.ts"]),
    ("2024-02-28T09:00:00Z", "human-notes", None, "Weekly notes: hiring and on-call",
     "Two interviews this week; on-call rotation moves to Tuesdays.", [], []),
    ("2024-09-30T09:00:00Z", "human-notes", None, "Weekly notes: on-call handbook drafted",
     "The on-call handbook has a first draft; escalation goes through the incident channel.", [], []),
    ("2025-03-31T09:00:00Z", "human-notes", None, "Weekly notes: on-call rotation and handbook review",
     "Handbook reviewed by everyone on call; rotation stays on Tuesdays.", [], []),
    ("2025-10-20T16:00:00Z", "agent-codex", "data-pipeline", "Backfill job skips rows with NULL occurred_at",
     "Undated rows were dropped silently; they are now imported and flagged.",
     ["Why are some rows missing after the backfill?"], ["backfill.py", "WHERE occurred_at IS NOT NULL"]),
]

PROJECTS = ["shop", "api", "infra", "mobile-app", "docs-site", "data-pipeline"]
SOURCES = ["agent-claude", "agent-codex", "ci-bot", "human-notes"]
DEPENDENCIES = ["serde", "tokio", "react", "django", "pyyaml", "terraform-provider-aws",
                "eslint", "pytest", "sqlx", "axios", "pandas", "kubernetes-client"]
TESTS = ["test_checkout_total", "test_login_redirect", "test_rate_limit_burst",
         "test_backfill_dates", "test_push_token_refresh", "test_search_widget",
         "test_iva_descuento", "test_dns_plan"]
MODULES = ["checkout", "auth", "ratelimit", "importer", "notifications", "search",
           "billing", "thumbnailer", "calendar", "webhooks"]
SPANISH = [
    ("Revisión del código de {m}", "Revisamos el módulo {m}: nombres más claros y menos duplicación."),
    ("Documentación de {m} actualizada", "La guía de {m} explica ahora la configuración paso a paso."),
    ("Pruebas lentas en {m}", "Las pruebas de {m} tardaban demasiado; se paralelizan por archivo."),
]


def date_between(start_day, span_days):
    day = start_day + rng.randrange(span_days)
    seconds = rng.randrange(8 * 3600, 19 * 3600)
    return day * 86400 + seconds


def iso(ts):
    import datetime
    return datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def routine():
    kind = rng.randrange(6)
    project = rng.choice(PROJECTS)
    source = rng.choice(SOURCES)
    m = rng.choice(MODULES)
    if kind == 0:
        dep = rng.choice(DEPENDENCIES)
        v = f"{rng.randrange(1, 9)}.{rng.randrange(0, 30)}.{rng.randrange(0, 10)}"
        return (project, "ci-bot", f"Bump {dep} to {v}",
                f"Dependency update of {dep} to {v}; changelog reviewed, tests green.", [], [f"{dep}=={v}"])
    if kind == 1:
        t = rng.choice(TESTS)
        return (project, source, f"Fix flaky test {t}",
                f"{t} failed one run in twenty: it depended on wall-clock time. Injected a fixed clock.",
                [f"Why is {t} flaky?"], [t])
    if kind == 2:
        return (project, source, f"Refactor the {m} module",
                f"Split {m} into smaller functions; no behaviour change, coverage unchanged.", [], [f"src/{m}/"])
    if kind == 3:
        n = rng.randrange(10, 99)
        return (project, "ci-bot", f"Deploy release v2.{n}",
                f"Release v2.{n} deployed to production after the canary stayed healthy for an hour.", [], [f"v2.{n}"])
    if kind == 4:
        title, summary = rng.choice(SPANISH)
        return (project, source, title.format(m=m), summary.format(m=m), [], [])
    return (project, source, f"Investigate slow {m} endpoint",
            f"p95 latency of the {m} endpoint doubled; an N+1 query was batched.",
            [f"Why is the {m} endpoint slow?"], [f"{m}: p95 820ms"])


def main():
    items = []
    for date, source, project, title, summary, questions, atoms in STORIES:
        items.append({"source": source, "project": project, "title": title, "summary": summary,
                      "questions": questions, "atoms": atoms, "occurred_at": date})
    start = 19723  # 2024-01-01
    for _ in range(300 - len(items)):
        project, source, title, summary, questions, atoms = routine()
        items.append({"source": source, "project": project, "title": title, "summary": summary,
                      "questions": questions, "atoms": atoms,
                      "occurred_at": iso(date_between(start, 700))})
    items.sort(key=lambda it: it["occurred_at"])
    for it in items:
        it["transcript"] = f"user: {it['questions'][0] if it['questions'] else it['title']}\nassistant: {it['summary']}"
        print(json.dumps(it, ensure_ascii=False))


if __name__ == "__main__":
    main()
