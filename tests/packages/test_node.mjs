// The installed npm package sqlite-recall, run by tests/packages/node.sh in a fresh
// folder holding it, better-sqlite3, TypeScript and better-sqlite3's types. Answers are
// compared with the release `recall` CLI, run as a separate process.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { getLoadablePath, load, parameters } from 'sqlite-recall';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const repo = process.env.SQLITE_RECALL_REPO;
const recallBin = process.env.SQLITE_RECALL_BIN;
assert.ok(repo && recallBin, 'run through tests/packages/node.sh');
const packageDir = path.dirname(require.resolve('sqlite-recall/package.json'));
const NOW = '2025-11-29T00:00:00Z';

function recall(...args) {
  const env = { ...process.env };
  for (const name of ['RECALL_DB', 'RECALL_CONFIG', 'RECALL_TOKENIZER']) delete env[name];
  return execFileSync(recallBin, args, { encoding: 'utf8', env });
}

test('getLoadablePath() is the packaged library of this platform, absolute', () => {
  const file = getLoadablePath();
  assert.ok(path.isAbsolute(file), file);
  assert.ok(fs.statSync(file).isFile(), file);
  assert.equal(
    path.dirname(file),
    path.join(packageDir, 'lib', `${process.platform}-${process.arch}`)
  );
});

test('a platform the package holds no library for is named, with how to build one', () => {
  // A Node that reports another architecture: what a user on one would see.
  const script = `
    Object.defineProperty(process, 'arch', { value: 'riscv64' });
    const { getLoadablePath, load } = require('sqlite-recall');
    for (const f of [getLoadablePath, () => load({ loadExtension() {} })]) {
      try { f(); console.log('no error'); } catch (e) { console.log(e.name + ': ' + e.message); }
    }`;
  const out = execFileSync(process.execPath, ['-e', script], { cwd: here, encoding: 'utf8' });
  const held = fs.readdirSync(path.join(packageDir, 'lib')).sort().join(', ');
  const message =
    `Error: sqlite-recall: this package has no librecall0 for ${process.platform}-riscv64 ` +
    `(it holds: ${held}); build it from the sqlite-recall source on this machine with ` +
    '`make npm` (needs a Rust toolchain) and install the .tgz it writes to target/npm/';
  assert.deepEqual(out.trim().split('\n'), [message, message]);
});

test('require and import give the same functions', () => {
  const cjs = require('sqlite-recall');
  assert.equal(cjs.load, load);
  assert.equal(cjs.getLoadablePath, getLoadablePath);
});

test("recall_version() is v + the package's version and the CLI's", () => {
  const db = new Database(':memory:');
  load(db);
  const version = db.prepare('select recall_version()').pluck().get();
  db.close();
  const packaged = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  assert.notEqual(packaged.version, '0.0.0', 'packing replaces the placeholder version');
  assert.equal(version, `v${packaged.version}`);
  const cli = recall('--version').trim().match(/^recall (\S+)$/);
  assert.ok(cli, 'recall --version prints "recall VERSION"');
  assert.equal(version, `v${cli[1]}`);
});

test('load() calls loadExtension(path) of any driver, and refuses anything else', () => {
  const calls = [];
  load({ loadExtension: (file) => calls.push(file) });
  assert.deepEqual(calls, [getLoadablePath()]);
  for (const value of [{}, null, undefined, 'memory.db', 42, { loadExtension: 'no' }]) {
    assert.throws(() => load(value), {
      name: 'TypeError',
      message: /^sqlite-recall: load\(db\) needs a database connection with a loadExtension\(path\) method/,
    });
  }
});

describe('sql/search.sql in better-sqlite3 gives the CLI search', () => {
  let dir;
  let lib;
  let db;
  let search;
  let tokenizer;
  // better-sqlite3 wants every named parameter bound: the package's parameters() gives
  // each one null, its default, as the CLI leaves an unset one NULL.
  const searchSql = fs.readFileSync(path.join(repo, 'sql', 'search.sql'), 'utf8');

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-recall-node-'));
    lib = path.join(dir, 'lib.db');
    recall('--db', lib, 'init');
    recall('--db', lib, 'import', path.join(repo, 'examples', 'sample.jsonl'));
    db = new Database(lib, { fileMustExist: true });
    load(db);
    search = db.prepare(searchSql);
    tokenizer = db.prepare("select value from recall_meta where key = 'tokenizer'").pluck().get();
  });
  after(() => {
    db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  // Each case: the query, the CLI's flags, and the same filters as parameters.
  const cases = [
    ['When did we decide to remove the analytics script?', [], {}],
    ['database is locked', ['--project', 'api'], { project: 'api' }],
    ['migracion fechas', [], {}],
    ['ECONNREFUSED 5432', ['--source', 'agent-codex'], { source: 'agent-codex' }],
    // More hits than the default limit, and than a limit given, and the largest limit.
    ['deploy', [], {}],
    ['deploy', ['--since', '2025-01-01', '--limit', '20'], { since: '2025-01-01', limit: 20 }],
    ['deploy', ['--limit', '50'], { limit: 50 }],
    ['error', ['--allow', 'agent-*', '--until', '2025-06-01'], { sources: '["agent-*"]', until: '2025-06-01' }],
    // FTS5 syntax in a query is text to search for, in both.
    ['analytics" OR title:script NEAR( -deploy*', [], {}],
  ];
  for (const [query, flags, filters] of cases) {
    test(`${query} ${flags.join(' ')}`.trim(), () => {
      const cli = JSON.parse(recall('--db', lib, '--json', 'search', query, '--now', NOW, ...flags));
      assert.equal(cli.settings.tokenizer, tokenizer);
      const expected = cli.results.map((r) => [r.id, r.title]);
      assert.ok(expected.length > 0, 'the CLI finds something, so the comparison means something');
      const rows = search.all(parameters(searchSql, { ...filters, query, tokenizer, now: NOW }));
      assert.deepEqual(rows.map((r) => [r.id, r.title]), expected);
    });
  }

  test('parameters() are exactly the ones search.sql needs: without any one it is refused', () => {
    const all = parameters(searchSql, { query: 'deploy', tokenizer });
    // docs/queries.md's list, the parameters the CLI binds (cli/src/query/params.rs) included.
    for (const name of ['context_weight', 'context_radius', 'context_gap', 'nearest', 'rrf_k']) {
      assert.ok(name in all, name);
    }
    assert.ok(search.all(all).length > 0);
    for (const name of Object.keys(all)) {
      const fewer = { ...all };
      delete fewer[name];
      assert.throws(() => search.all(fewer), { message: `Missing named parameter "${name}"` });
    }
  });

  test('a query that matches nothing gives nothing in both', () => {
    const query = 'qqqzzzxxxwww';
    const cli = JSON.parse(recall('--db', lib, '--json', 'search', query, '--now', NOW));
    assert.deepEqual(cli.results, []);
    assert.deepEqual(search.all(parameters(searchSql, { query, tokenizer, now: NOW })), []);
  });
});

// tests/sql/*.sql, read as tests/common/mod.rs reads them (parse_sql_file) and run as
// tests/sql_files.rs runs them in the other hosts: each check line gives exactly the row
// `id|1`, each error line alone (after the set-up lines before it) fails with its
// message, and nothing else fails.
describe('tests/sql/*.sql in better-sqlite3', () => {
  const dir = path.join(repo, 'tests', 'sql');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();

  function parse(text) {
    const lines = [];
    for (const raw of text.split('\n').map((l) => l.trim())) {
      if (raw === '' || raw.startsWith('--')) continue;
      const rest = raw.startsWith("select '") ? raw.slice("select '".length) : '';
      const id = rest.includes("'") ? rest.slice(0, rest.indexOf("'")) : null;
      const cut = raw.indexOf(' -- error: ');
      if (id !== null && cut >= 0) {
        const expected = raw.slice(cut + ' -- error: '.length);
        lines.push({ kind: 'error', id, sql: raw.slice(0, cut), expected });
      } else if (id !== null) {
        lines.push({ kind: 'check', id, sql: raw });
      } else {
        lines.push({ kind: 'setup', sql: raw });
      }
    }
    return lines;
  }

  function connection() {
    const db = new Database(':memory:');
    load(db);
    return db;
  }

  function rows(db, sql) {
    const stmt = db.prepare(sql);
    if (!stmt.reader) {
      stmt.run();
      return [];
    }
    return stmt.raw().all().map((row) => row.map((v) => (v === null ? null : String(v))));
  }

  test('there are files to run', () => assert.ok(files.length >= 7, files.join(', ')));
  for (const file of files) {
    test(file, () => {
      const lines = parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      const failures = [];
      const db = connection();
      try {
        for (const line of lines.filter((l) => l.kind !== 'error')) {
          const got = rows(db, line.sql);
          if (line.kind === 'check' && JSON.stringify(got) !== JSON.stringify([[line.id, '1']])) {
            failures.push(`${line.id} gave ${JSON.stringify(got)}`);
          }
        }
      } finally {
        db.close();
      }
      lines.forEach((line, i) => {
        if (line.kind !== 'error') return;
        const alone = connection();
        let error = 'no error';
        try {
          for (const setup of lines.slice(0, i).filter((l) => l.kind === 'setup')) {
            rows(alone, setup.sql);
          }
          rows(alone, line.sql);
        } catch (e) {
          error = e.message;
        } finally {
          alone.close();
        }
        if (!error.includes(line.expected)) {
          failures.push(`${line.id} should fail with ${JSON.stringify(line.expected)}, got ${error}`);
        }
      });
      assert.deepEqual(failures, []);
      assert.ok(lines.some((l) => l.kind !== 'setup'), `${file} holds checks`);
    });
  }
});

describe('TypeScript types', () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const options = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022'];
  function typeCheck(files, ...more) {
    const args = [tsc, ...options, ...more, ...files];
    return spawnSync(process.execPath, args, { cwd: here, encoding: 'utf8' });
  }
  const good = `import Database from 'better-sqlite3';
import { getLoadablePath, load, parameters } from 'sqlite-recall';

const db = new Database(':memory:');
load(db);
load({ loadExtension: (file: string) => file.length });
const file: string = getLoadablePath();
console.log(file, db.prepare('select recall_version()').pluck().get());
const sql = 'select :query as q';
console.log(db.prepare(sql).get(parameters(sql, { query: 'x' })), parameters(sql));
`;

  test('a program using load(new Database(...)) compiles, as CommonJS and as ESM', () => {
    fs.writeFileSync(path.join(here, 'good.ts'), good);
    fs.writeFileSync(path.join(here, 'good.mts'), good);
    const result = typeCheck(['good.ts', 'good.mts']);
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });

  test('wrong arguments and results do not compile', () => {
    // Each line marked `// TSnnnn` must give that error, and no other line any.
    const bad = `import { getLoadablePath, load, parameters } from 'sqlite-recall';

load('memory.db'); // TS2345
load({ loadExtension: 42 }); // TS2322
load({}); // TS2345
const n: number = getLoadablePath(); // TS2322
load(); // TS2554
parameters(42); // TS2345
parameters('select :a', 'a'); // TS2345
`;
    fs.writeFileSync(path.join(here, 'bad.ts'), bad);
    const expected = bad
      .split('\n')
      .map((line, i) => [i + 1, line.match(/\/\/ (TS\d+)$/)?.[1]])
      .filter(([, code]) => code);
    // The declaration files were checked above; skipping them here saves most of the time.
    const result = typeCheck(['bad.ts'], '--skipLibCheck');
    assert.notEqual(result.status, 0);
    const errors = [...result.stdout.matchAll(/^bad\.ts\((\d+),\d+\): error (TS\d+)/gm)].map(
      (m) => [Number(m[1]), m[2]]
    );
    assert.deepEqual(errors, expected, result.stdout);
  });
});

// The package's parameters(): the names are the ones SQLite binds, so better-sqlite3
// is the judge: with all of them a statement runs, without any one it is refused.
test('parameters() are the ones SQLite binds, not words in strings or comments', () => {
  const sql =
    "select :a as a, ':b' as s, \"x:c\" as [y:d], /* :e */ @f as f, $g as g -- :h\n" +
    ", :a || 'it''s :i' as again, `q:j` as t from (select 1 as \"x:c\", 2 as `q:j`)";
  const names = ['a', 'f', 'g'];
  assert.deepEqual(Object.keys(parameters(sql)), names);
  const db = new Database(':memory:');
  try {
    const stmt = db.prepare(sql).raw();
    assert.deepEqual(stmt.get(parameters(sql, { a: 'A', g: 7 })), ['A', ':b', 1, null, 7, "Ait's :i", 2]);
    for (const name of names) {
      const fewer = parameters(sql);
      delete fewer[name];
      assert.throws(() => stmt.get(fewer), { message: `Missing named parameter "${name}"` });
    }
  } finally {
    db.close();
  }
});

test('parameters() refuses a name the SQL does not have, and anything but text', () => {
  assert.throws(() => parameters('select :query', { qeury: 'x' }), {
    name: 'Error',
    message: 'sqlite-recall: the SQL has no parameter :qeury; its parameters are: query',
  });
  assert.throws(() => parameters(undefined), { name: 'TypeError' });
});

// The examples of the READMEs, read from their text: each block's last lines, written as
// comments, are what it prints.
function readmeBlocks(file, section) {
  let text = fs.readFileSync(file, 'utf8');
  if (section) text = text.split(`\n## ${section}\n`)[1].split('\n## ')[0];
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => {
    const lines = m[1].trimEnd().split('\n');
    const shown = [];
    while (lines.length && lines[lines.length - 1].startsWith('// ')) shown.unshift(lines.pop().slice(3));
    return { code: lines.join('\n'), shown };
  });
}

// Run from a folder below this one, where the package and better-sqlite3 are installed.
function runProgram(folder, code) {
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'example.js');
  fs.writeFileSync(file, code + '\n');
  return execFileSync(process.execPath, [file], { cwd: folder, encoding: 'utf8' });
}

test("the README's Node example prints what it shows", () => {
  const blocks = readmeBlocks(path.join(repo, 'README.md'), 'Install');
  assert.equal(blocks.length, 1, 'one js example in the Install section');
  const [{ code, shown }] = blocks;
  assert.ok(shown.length > 0);
  const out = runProgram(path.join(process.cwd(), 'readme-top'), code);
  assert.deepEqual(out.trimEnd().split('\n'), shown);
});

test("every js example of the package's README prints what it shows, in order", () => {
  const readme = path.join(repo, 'bindings', 'node', 'README.md');
  const blocks = readmeBlocks(readme);
  assert.equal(blocks.length, 2, blocks.map((b) => b.code).join('\n---\n'));
  // As the README says: memory.db made by recall init and recall import of the sample,
  // run in the repository (sql/ beside it).
  const folder = path.join(process.cwd(), 'readme-node');
  fs.mkdirSync(folder, { recursive: true });
  const lib = path.join(folder, 'memory.db');
  recall('--db', lib, 'init');
  recall('--db', lib, 'import', path.join(repo, 'examples', 'sample.jsonl'));
  fs.symlinkSync(path.join(repo, 'sql'), path.join(folder, 'sql'));
  for (const { code, shown } of blocks) assert.ok(shown.length > 0, `shows what it prints:\n${code}`);
  const out = runProgram(folder, blocks.map((b) => b.code).join('\n'));
  assert.deepEqual(out.trimEnd().split('\n'), blocks.flatMap((b) => b.shown));
  // The search example's answer is the CLI's.
  const search = blocks.find((b) => b.code.includes('sql/search.sql'));
  const [, query] = search.code.match(/query: '([^']*)'/);
  const cli = JSON.parse(recall('--db', lib, '--json', 'search', query)).results;
  assert.deepEqual(search.shown, cli.map((r) => `${r.id} ${r.title}`));
});

test("the package README's install line names the file make npm writes", () => {
  const readme = fs.readFileSync(path.join(repo, 'bindings', 'node', 'README.md'), 'utf8');
  const install = readme.split('\n## Install\n')[1].split('\n## ')[0];
  const line = install.split('\n').find((l) => l.startsWith('npm install '));
  const [, named] = line.match(/^npm install better-sqlite3 \/path\/to\/(target\/npm\/sqlite-recall-VERSION\.tgz)\s*$/);
  const version = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;
  // The target folder of the release recall the test runs.
  const target = path.dirname(path.dirname(recallBin));
  const file = path.join(target, named.replace(/^target\//, '').replace('VERSION', version));
  assert.ok(fs.statSync(file).isFile(), file);
});
