#!/usr/bin/env node
// lambda-zip: a dependency-free, deterministic zip writer for Lambda
// deployment packages (the `zip` tool is not on every machine).
//
//   node infra-cdk/scripts/lambda-zip.cjs build/lambda/api.zip build/lambda/api/bootstrap
//
// Each file goes in at the root of the archive under its base name, with
// Unix mode 0755 (Lambda runs `bootstrap` as an executable, so the mode
// must be in the archive) and a fixed 1980-01-01 timestamp: the same
// binary always gives the same zip, so CDK's asset hash only changes when
// the code does. Prints the archive's size.
//
// Also used by the CDK app and tests to make placeholder assets.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

/** @type {Uint32Array | undefined} */
let crcTable;

/**
 * CRC-32 (IEEE), as zip needs it.
 * @param {Buffer} buf
 * @returns {number}
 */
function crc32(buf) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < buf.length; i++) crc = crcTable[(crc ^ buf[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * @typedef {{ name: string, data: Buffer | string, mode?: number }} ZipEntry
 */

/**
 * Builds a zip archive (deflate, or stored when deflate does not help).
 * @param {ZipEntry[]} entries
 * @returns {Buffer}
 */
function zipEntries(entries) {
  /** @type {Buffer[]} */
  const locals = [];
  /** @type {Buffer[]} */
  const centrals = [];
  let offset = 0;
  const DOS_TIME = 0; // 00:00:00
  const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
  for (const e of entries) {
    if (!e.name || e.name.startsWith('/') || e.name.split('/').includes('..')) {
      throw new Error(`lambda-zip: bad entry name ${JSON.stringify(e.name)}`);
    }
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data, 'utf8');
    const name = Buffer.from(e.name, 'utf8');
    const deflated = zlib.deflateRawSync(data, { level: 9 });
    const stored = deflated.length >= data.length;
    const body = stored ? data : deflated;
    const method = stored ? 0 : 8;
    const crc = crc32(data);
    const mode = (e.mode ?? 0o755) & 0o7777;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0 (so the mode below is read)
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(((0o100000 | mode) << 16) >>> 0, 38); // regular file + mode
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/**
 * Writes a zip of entries to file, creating its directory.
 * @param {string} file
 * @param {ZipEntry[]} entries
 * @returns {number} the archive's size in bytes
 */
function writeZip(file, entries) {
  const buf = zipEntries(entries);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, buf);
  return buf.length;
}

/** @param {number} n */
function human(n) {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

if (require.main === module) {
  const [out, ...files] = process.argv.slice(2);
  if (!out || files.length === 0) {
    console.error('usage: lambda-zip.cjs OUT.zip FILE...');
    process.exit(2);
  }
  let total = 0;
  const entries = files.map((f) => {
    const data = fs.readFileSync(f);
    total += data.length;
    return { name: path.basename(f), data, mode: 0o755 };
  });
  const size = writeZip(out, entries);
  console.log(`${out}: ${human(size)} (${human(total)} uncompressed)`);
}

module.exports = { zipEntries, writeZip, crc32 };
