#!/usr/bin/env node
// An Off to the Tower port speaking the JSON-lines protocol of spec/protocol.md:
// one request per line on stdin, one answer per line on stdout. Lines are read
// as bytes and split at \n only; every line gets exactly one answer.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonError, isInt, readJson } from './json.js';
import { RuleError, apply, chanceOutcomes, legalMoves, newGame, perft, registerBoard, seedBug } from './rules.js';
import * as N from './notation.js';

const PROTOCOL = 1;
const MAX_LINE_BYTES = 1 << 20;

// The shipped boards are the JSON files beside the schema in tower/boards/.
const BOARDS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'boards');
for (const file of fs.readdirSync(BOARDS).sort()) {
  if (file.endsWith('.json') && file !== 'schema.json') {
    registerBoard(file.slice(0, -5), readJson(fs.readFileSync(path.join(BOARDS, file), 'utf8'), 1000));
  }
}

// --bug NAME seeds one of the bugs listed in bugs.json (for the conformance study).
const HERE = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
if (argv.length) {
  const known = JSON.parse(fs.readFileSync(path.join(HERE, 'bugs.json'), 'utf8')).bugs.map((b) => b.name);
  if (argv.length !== 2 || argv[0] !== '--bug' || !known.includes(argv[1])) {
    process.stderr.write(`port.js: error: the only option is --bug NAME, NAME one of: ${known.join(', ')}\n`);
    process.exit(2);
  }
  seedBug(argv[1]);
}

function stateOf(q) {
  if (typeof q.state !== 'string') throw new Error("the request needs 'state' (notation)");
  return N.parseState(q.state);
}

const OPS = {
  hello: () => ({
    protocol: PROTOCOL,
    name: 'Off to the Tower JavaScript port',
    game: 'tower',
    supports: { players: [2, 3, 4], boards: true },
  }),
  new: (q) => {
    // The configuration is 'config' (spec/protocol.md); 'rules', its older name, is read too.
    const given = 'config' in q ? q.config : 'rules' in q ? q.rules : {};
    const config = N.configFromJson(given);
    return { state: N.formatState(newGame(config, 'first_player' in q ? q.first_player : 0)) };
  },
  state: (q) => {
    const s = 'json' in q ? N.stateFromJson(q.json) : N.parseState(q.text);
    return { state: N.formatState(s), json: N.stateToJson(s) };
  },
  action: (q) => {
    const a = 'json' in q ? N.actionFromJson(q.json) : N.parseAction(q.text);
    return { action: N.formatAction(a), json: N.actionToJson(a) };
  },
  moves: (q) => ({ moves: legalMoves(stateOf(q)).map((m) => N.formatAction({ type: 'move', ...m })) }),
  apply: (q) => {
    if (typeof q.action !== 'string') throw new Error("the request needs 'action' (notation)");
    const { state, event } = apply(stateOf(q), N.parseAction(q.action));
    return { state: N.formatState(state), event };
  },
  chance: (q) => ({
    outcomes: chanceOutcomes(stateOf(q)).map((o) => ({ action: N.formatAction({ type: 'throw', dice: o.dice }), p: o.p })),
  }),
  perft: (q) => perft(stateOf(q)),
  quit: () => ({}),
};

const refuse = (message, seq = null) => ({ seq, ok: false, error: { rule: null, message } });

function validUtf8(bytes) {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch (e) {
    return false;
  }
}

// The answer to one line (null: a line over the limit), and whether it ends the session.
function handle(bytes) {
  if (bytes === null) return [refuse('malformed request: a line longer than 1,048,576 bytes'), false];
  if (!validUtf8(bytes)) return [refuse('malformed request: a line that is not UTF-8'), false];
  const line = bytes.toString('utf8').replace(/\r$/, '');
  if (!line.trim()) return [refuse('malformed request: an empty line'), false];
  let q;
  try {
    q = readJson(line);
  } catch (e) {
    if (e instanceof JsonError) return [refuse(`malformed request: ${e.message}`), false];
    throw e;
  }
  if (q === null || typeof q !== 'object' || Array.isArray(q)) return [refuse('the request is not a JSON object'), false];
  if (!isInt(q.seq)) return [refuse('seq must be an integer'), false];
  const op = typeof q.op === 'string' && Object.prototype.hasOwnProperty.call(OPS, q.op) ? OPS[q.op] : null;
  if (!op) return [refuse(`unknown op ${JSON.stringify(String(q.op))}`, q.seq), false];
  try {
    return [{ seq: q.seq, ok: true, ...op(q) }, q.op === 'quit'];
  } catch (e) {
    const error = { rule: e instanceof RuleError ? e.rule : null, message: e.message };
    if (e instanceof RuleError && e.at !== undefined) error.at = e.at;
    return [{ seq: q.seq, ok: false, error }, false];
  }
}

function answer(bytes) {
  let reply;
  let done = false;
  try {
    [reply, done] = handle(bytes);
  } catch (e) {
    reply = refuse(`internal error: ${e}`);
    process.stderr.write(`internal error: ${e && e.stack ? e.stack : e}\n`);
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
  return done;
}

let pending = [];
let size = 0;
let tooLong = false;

// Stop reading; the process ends once every answer written has reached stdout
// (process.exit would cut off answers still queued for a full pipe).
function finish() {
  process.stdin.destroy();
  process.exitCode = 0;
}

process.stdin.on('data', (chunk) => {
  let start = 0;
  for (;;) {
    const end = chunk.indexOf(10, start);
    const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
    if (!tooLong) {
      size += piece.length;
      if (size > MAX_LINE_BYTES) {
        tooLong = true;
        pending = [];
      } else {
        pending.push(piece);
      }
    }
    if (end < 0) return;
    const line = tooLong ? null : Buffer.concat(pending);
    pending = [];
    size = 0;
    tooLong = false;
    if (answer(line)) {
      finish();
      return;
    }
    start = end + 1;
  }
});
process.stdin.on('end', () => {
  if (size > 0 || tooLong) answer(tooLong ? null : Buffer.concat(pending));
  finish();
});
