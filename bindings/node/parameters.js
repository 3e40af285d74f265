'use strict';
// The named parameters of a SQL text, found as SQLite's tokenizer finds them: string
// literals, quoted identifiers and comments can hold a colon followed by a word without
// it being one ('12:30', "a:b", -- see :x).
const TOKEN = new RegExp(
  [
    "'(?:[^']|'')*'?",
    '"(?:[^"]|"")*"?',
    '`(?:[^`]|``)*`?',
    '\\[[^\\]]*\\]?',
    '--[^\\n]*',
    '/\\*[\\s\\S]*?(?:\\*/|$(?![\\s\\S]))',
    '[:@$]([A-Za-z0-9_$\\u{80}-\\u{10ffff}]+)',
    '[A-Za-z0-9_$\\u{80}-\\u{10ffff}]+',
    '[\\s\\S]',
  ].join('|'),
  'gu'
);

function parameterNames(sql) {
  if (typeof sql !== 'string') {
    throw new TypeError(`sqlite-recall: parameters(sql) needs the SQL text, got a ${typeof sql}`);
  }
  const names = new Set();
  for (const m of sql.matchAll(TOKEN)) {
    if (m[1] !== undefined) names.add(m[1]);
  }
  return [...names];
}

// Every named parameter of `sql`, null (SQL NULL, which the files of sql/ read as the
// default) unless `values` gives it. better-sqlite3 refuses a statement with a named
// parameter left out, and a name the SQL does not use would be ignored in silence, so
// that is an error here.
function parameters(sql, values = {}) {
  const names = parameterNames(sql);
  const unknown = Object.keys(values).filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `sqlite-recall: the SQL has no parameter :${unknown[0]}; ` +
        `its parameters are: ${names.join(', ') || 'none'}`
    );
  }
  return { ...Object.fromEntries(names.map((name) => [name, null])), ...values };
}

module.exports = { parameterNames, parameters };
