// The hybrid search of `recall search --embed-cmd` in better-sqlite3, run by
// tests/packages/node.sh next to test_node.mjs: the installed sqlite-recall and
// sqlite-vec (npm, the version the CLI links) loaded into one connection, the query
// embedded by asking the test embedder directly, sql/nearest.sql's ids passed to
// sql/search.sql as :nearest, and every row compared with the release CLI's answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { load } from 'sqlite-recall';
import * as sqliteVec from 'sqlite-vec';

const repo = process.env.SQLITE_RECALL_REPO;
const recallBin = process.env.SQLITE_RECALL_BIN;
assert.ok(repo && recallBin, 'run through tests/packages/node.sh');
const NOW = '2025-11-29T00:00:00Z';
const LIMIT = 20;
const fakeEmbedder = path.join(repo, 'tests', 'vectors', 'fake_embed.py');
// The CLI splits the command as a shell does: the path goes in single quotes.
const embedCmd = `python3 '${fakeEmbedder.replaceAll("'", `'\\''`)}'`;
// What channel.rs binds when no configuration sets them (docs/vectors.md).
// The default fusion and its settings, as --explain reports them.
const FUSION = { fusion: 'convex', vector_share: 0.4, rrf_k: 60, literal_weight: 1, vector_weight: 0.9 };

function recall(...args) {
  const env = { ...process.env };
  for (const name of ['RECALL_DB', 'RECALL_CONFIG', 'RECALL_TOKENIZER']) delete env[name];
  return execFileSync(recallBin, args, { encoding: 'utf8', env });
}

/** The embedder's own answer to one request, outside recall. */
function embedDirectly(text) {
  const request = JSON.stringify({ id: 1, texts: [text] }) + '\n';
  const done = spawnSync('python3', [fakeEmbedder], { input: request, encoding: 'utf8' });
  assert.equal(done.status, 0, done.stderr);
  const lines = done.stdout.trim().split('\n');
  assert.equal(lines.length, 1, done.stdout);
  const answer = JSON.parse(lines[0]);
  assert.equal(answer.id, 1);
  assert.equal(answer.vectors.length, 1);
  return answer;
}

/** Every named parameter of a query file, unset (NULL), as test_node.mjs binds them. */
function unsetParams(sql) {
  return Object.fromEntries(
    [...sql.matchAll(/(?<![\w:]):([A-Za-z_]\w*)/g)].map((m) => [m[1], null])
  );
}

function close(got, want, what) {
  assert.equal(got === null, want === null, `${what}: ${got} vs ${want}`);
  if (want !== null) assert.ok(Math.abs(got - want) <= 1e-9, `${what}: ${got} vs ${want}`);
}

describe('sql/nearest.sql + sql/search.sql in better-sqlite3 give the CLI hybrid search', () => {
  let dir;
  let lib;
  let db;
  let nearestStmt;
  let searchStmt;
  let tokenizer;
  let model;
  let vectorOnly = 0;
  let inBoth = 0;
  const nearestSql = fs.readFileSync(path.join(repo, 'sql', 'nearest.sql'), 'utf8');
  const searchSql = fs.readFileSync(path.join(repo, 'sql', 'search.sql'), 'utf8');

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-recall-node-vectors-'));
    lib = path.join(dir, 'lib.db');
    recall('--db', lib, 'init');
    recall('--db', lib, 'import', path.join(repo, 'examples', 'sample.jsonl'));
    const made = JSON.parse(recall('--db', lib, '--json', 'embed', '--embed-cmd', embedCmd));
    model = embedDirectly('probe').model;
    db = new Database(lib, { fileMustExist: true });
    load(db);
    sqliteVec.load(db);
    const items = db.prepare('select count(*) from items').pluck().get();
    assert.deepEqual([made.embedded, made.model], [items, model], JSON.stringify(made));
    nearestStmt = db.prepare(nearestSql);
    searchStmt = db.prepare(searchSql);
    tokenizer = db.prepare("select value from recall_meta where key = 'tokenizer'").pluck().get();
  });
  after(() => {
    db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('vec0 is the one of the npm package sqlite-vec, of the version the CLI links', () => {
    const file = path.join(process.cwd(), 'node_modules', 'sqlite-vec', 'package.json');
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(db.prepare('select vec_version()').pluck().get(), `v${pkg.version}`);
    assert.equal(pkg.version, process.env.SQLITE_VEC_VERSION);
    assert.ok(fs.statSync(sqliteVec.getLoadablePath()).isFile());
  });

  // Each case: the query, the CLI's flags, and the same filters as parameters. The
  // queries use the test embedder's synonyms, so that items sharing no word with them
  // come in through the vector list alone.
  const cases = [
    ['database outage', [], {}],
    ['the deploy crashed', [], {}],
    ['slow dependency update', ['--project', 'api'], { project: 'api' }],
    ['broken release', ['--allow', 'agent-*'], { sources: '["agent-*"]' }],
    ['lock contention', ['--since', '2025-03-01'], { since: '2025-03-01' }],
    [
      'postgres error',
      ['--project', 'infra', '--allow', 'ci-*', '--since', '2024-06-01', '--until', '2025-10-01'],
      { project: 'infra', sources: '["ci-*"]', since: '2024-06-01', until: '2025-10-01' },
    ],
  ];
  for (const [query, flags, filters] of cases) {
    test(`${query} ${flags.join(' ')}`.trim(), (t) => {
      const args = ['--db', lib, '--json', 'search', query, ...flags, '--explain', '--now', NOW];
      args.push('--limit', String(LIMIT), '--embed-cmd', embedCmd);
      const cli = JSON.parse(recall(...args));
      // Counted from the CLI's rows, so that the last test stands apart from this one's checks.
      const alone = cli.results.filter((r) => r.matched_by === 'vector' && r.literal_rank === null);
      vectorOnly += alone.length;
      inBoth += cli.results.filter((r) => r.literal_rank !== null && r.vector_rank !== null).length;
      const ex = cli.explain;
      assert.equal(cli.settings.tokenizer, tokenizer);
      // Common-term pruning would bind a :match of the CLI's own; none here.
      assert.deepEqual(ex.pruned, []);
      assert.equal(ex.vectors.on, true, JSON.stringify(ex.vectors));
      assert.equal(ex.vectors.model, model);
      for (const [key, value] of Object.entries(FUSION)) assert.equal(ex.vectors[key], value, key);
      assert.ok(cli.results.length > 0, 'the CLI finds something, so the comparison counts');

      const vector = embedDirectly(query).vectors[0];
      const nearest = nearestStmt
        .all({
          ...unsetParams(nearestSql),
          ...filters,
          query_vector: JSON.stringify(vector),
          k: BigInt(ex.pool),
        })
        .map((r) => ({ id: r.id, distance: r.distance }));
      assert.equal(nearest.length, ex.vectors.nearest);

      // search.sql with the CLI's settings and a vector list given as JSON.
      const search = (list) =>
        searchStmt.all({
          ...unsetParams(searchSql),
          ...filters,
          query,
          tokenizer,
          now: NOW,
          limit: BigInt(LIMIT),
          pool: BigInt(ex.pool),
          nearest: JSON.stringify(list),
          ...FUSION,
        });
      const rows = search(nearest);
      assert.deepEqual(
        rows.map((r) => r.id),
        cli.results.map((r) => r.id)
      );
      rows.forEach((got, i) => {
        const want = cli.results[i];
        for (const key of ['literal_rank', 'vector_rank', 'matched_by']) {
          assert.equal(got[key], want[key], `row ${got.id} ${key}`);
        }
        close(got.fused, want.fused, `row ${got.id} fused`);
        close(got.score, want.score, `row ${got.id} score`);
      });
      assert.ok(rows.some((r) => r.vector_rank !== null), 'the vector list gave rows');

      // A list of bare ids (no distances) is fused by reciprocal rank: the CLI's answer
      // under --fusion rrf.
      const rrf = JSON.parse(recall(...args, '--fusion', 'rrf')).results;
      const bare = search(nearest.map((n) => n.id));
      assert.deepEqual(
        bare.map((r) => r.id),
        rrf.map((r) => r.id)
      );
      bare.forEach((got, i) => close(got.fused, rrf[i].fused, `row ${got.id} rrf fused`));

      // The filters hold for every row, checked on the items themselves.
      const item = db.prepare('select project, source, occurred_at from items where id = ?');
      const globbed = db.prepare('select ? glob ?').pluck();
      for (const r of rows) {
        const it = item.get(r.id);
        if (filters.project) assert.equal(it.project, filters.project, `row ${r.id}`);
        if (filters.sources) {
          const [glob] = JSON.parse(filters.sources);
          assert.equal(globbed.get(it.source, glob), 1, `row ${r.id}`);
        }
        if (filters.since) assert.ok(it.occurred_at >= filters.since, `row ${r.id}`);
        if (filters.until) assert.ok(it.occurred_at < filters.until, `row ${r.id}`);
      }
      const counts = `${nearest.length} nearest; ${rows.length} rows as the CLI's`;
      t.diagnostic(`${counts}, ${alone.length} by vector only`);
    });
  }

  // Last in the block: node's test runner runs a file's tests one after another.
  test('some rows came by their vector alone and some by both lists: both fusion terms ran', () => {
    assert.ok(vectorOnly > 0, 'no search had a row found by its vector alone');
    assert.ok(inBoth > 0, 'no search had a row in both the literal and the vector list');
  });
});
