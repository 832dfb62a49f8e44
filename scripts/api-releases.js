'use strict';
/**
 * Where the API document of each release is kept: docs/api/releases/<API-Version>.json, one file per
 * release, never changed once a later release exists. The newest is the document the code serves.
 */
const { readdirSync } = require('node:fs');
const path = require('node:path');

const RELEASES = path.join(__dirname, '..', 'docs/api/releases');
const RELEASE_FILE = /^\d{4}-\d{2}-\d{2}\.json$/;

/** The release documents, oldest first, as { version, file }. */
function releaseDocuments(folder = RELEASES) {
  return readdirSync(folder)
    .filter((name) => RELEASE_FILE.test(name))
    .sort()
    .map((name) => ({ version: name.slice(0, -'.json'.length), file: path.join(folder, name) }));
}

module.exports = { RELEASES, releaseDocuments };
