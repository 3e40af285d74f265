'use strict';
// The packaged librecall0 for the running platform, a loader for any SQLite driver
// with loadExtension(path), such as better-sqlite3, and the named parameters of a query.
const fs = require('node:fs');
const path = require('node:path');
const { parameters } = require('./parameters.js');

// The file name cargo gives the cdylib on each platform. SQLite derives the entry point
// (sqlite3_recall_init) from it, so it is packaged unchanged.
const FILE_NAMES = {
  darwin: 'librecall0.dylib',
  win32: 'recall0.dll',
};

function libraryFileName(platform) {
  return FILE_NAMES[platform] || 'librecall0.so';
}

function packagedPlatforms(libDir) {
  try {
    return fs
      .readdirSync(libDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

function getLoadablePath() {
  // Folders are named process.platform-process.arch, so finding ours needs no table.
  const key = `${process.platform}-${process.arch}`;
  const libDir = path.join(__dirname, 'lib');
  const file = path.join(libDir, key, libraryFileName(process.platform));
  if (fs.existsSync(file)) {
    return file;
  }
  const held = packagedPlatforms(libDir);
  throw new Error(
    `sqlite-recall: this package has no librecall0 for ${key} ` +
      `(it holds: ${held.length ? held.join(', ') : 'none'}); ` +
      'build it from the sqlite-recall source on this machine with `make npm` ' +
      '(needs a Rust toolchain) and install the .tgz it writes to target/npm/'
  );
}

function load(db) {
  if (db == null || typeof db.loadExtension !== 'function') {
    throw new TypeError(
      'sqlite-recall: load(db) needs a database connection with a loadExtension(path) ' +
        'method (for example new Database(file) from better-sqlite3); got ' +
        describe(db)
    );
  }
  db.loadExtension(getLoadablePath());
}

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return `a ${typeof value}`;
  const name = value.constructor && value.constructor.name;
  return `${name && name !== 'Object' ? `a ${name}` : 'an object'} without loadExtension`;
}

module.exports = { getLoadablePath, load, parameters };
