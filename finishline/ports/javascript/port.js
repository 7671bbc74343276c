#!/usr/bin/env node
// The finish-line race speaking the conformance protocol (spec/protocol.md, with this
// game's config, states and actions: finishline/spec/protocol.md): one JSON request
// per line on stdin, one JSON answer per line on stdout.

import * as R from './rules.js';
import * as N from './notation.js';
import { MAX_LINE_BYTES, LineError, decode } from './lines.js';
import { readFileSync } from 'node:fs';

// --bug NAME switches on one seeded bug of bugs.json, for the study of the suite's diagnosis.
const BUGS = JSON.parse(readFileSync(new URL('./bugs.json', import.meta.url), 'utf8'));
const args = process.argv.slice(2);
if (args.length) {
  const known = BUGS.map((b) => b.name);
  if (args.length !== 2 || args[0] !== '--bug' || !known.includes(args[1])) {
    process.stderr.write(`port.js: error: usage: node port.js [--bug NAME], NAME one of ${known.join(', ')}\n`);
    process.exit(2);
  }
  R.setBug(args[1]);
}

const PROTOCOL = 1;

function text(request, key) {
  if (typeof request[key] !== 'string') throw new Error(`the request needs '${key}' (notation)`);
  return request[key];
}

const OPS = {
  hello: () => ({
    protocol: PROTOCOL,
    name: 'finishline JavaScript port',
    game: 'finishline',
    supports: { players: [2, 3, 4], counters: true },
  }),
  new: (q) => {
    const config = N.configFromJson('config' in q ? q.config : {});
    return { state: N.formatState(R.newGame(config, 'first_player' in q ? q.first_player : 0)) };
  },
  state: (q) => {
    const s = 'json' in q ? N.stateFromJson(q.json) : N.parseState(text(q, 'text'));
    return { state: N.formatState(s), json: N.stateToJson(s) };
  },
  action: (q) => {
    const a = 'json' in q ? N.actionFromJson(q.json) : N.parseAction(text(q, 'text'));
    return { action: N.formatAction(a), json: N.actionToJson(a) };
  },
  moves: (q) => ({ moves: R.legalActions(N.parseState(text(q, 'state'))).map(N.formatAction) }),
  apply: (q) => {
    const done = R.apply(N.parseState(text(q, 'state')), N.parseAction(text(q, 'action')));
    return { state: N.formatState(done.state), event: done.event };
  },
  chance: (q) => ({ outcomes: R.chanceOutcomes(N.parseState(text(q, 'state'))) }),
  perft: (q) => R.perft(N.parseState(text(q, 'state'))),
  quit: () => ({}),
};

const refuse = (message, seq = null) => ({ seq, ok: false, error: { rule: null, message } });

function handle(bytes) {
  let q;
  let seq;
  try {
    ({ value: q, seq } = decode(bytes));
  } catch (e) {
    if (e instanceof LineError) return [refuse(`malformed request: ${e.message}`, e.seq), false];
    throw e;
  }
  if (q === null || typeof q !== 'object' || Array.isArray(q)) return [refuse('the request is not a JSON object'), false];
  if (seq === null) return [refuse('seq must be an integer within ±(2**53 - 1)'), false];
  const op = typeof q.op === 'string' && Object.prototype.hasOwnProperty.call(OPS, q.op) ? OPS[q.op] : null;
  if (!op) return [{ seq, ok: false, error: { rule: null, message: `unknown op ${JSON.stringify(q.op)}` } }, false];
  try {
    return [{ seq, ok: true, ...op(q) }, q.op === 'quit'];
  } catch (e) {
    const error = { rule: e instanceof R.RuleError ? e.rule : null, message: e.message };
    if (e instanceof R.RuleError && e.at !== undefined) error.at = e.at;
    return [{ seq, ok: false, error }, false];
  }
}

// Answer one line (null: a line over the limit); return whether the session ends.
function answer(bytes) {
  let reply;
  let quit = false;
  try {
    [reply, quit] = bytes === null ? [refuse('malformed request: a line longer than 1,048,576 bytes'), false] : handle(bytes);
  } catch (e) {
    reply = { seq: null, ok: false, error: { rule: null, message: `internal error: ${e}` } };
    process.stderr.write(`internal error: ${e && e.stack ? e.stack : e}\n`);
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
  return quit;
}

let parts = [];
let size = 0;
let overLong = false;
let ended = false;

// The process ends by itself once its input is closed and every answer is written:
// process.exit() could cut off answers still waiting in a full pipe.
function stop() {
  ended = true;
  process.stdin.destroy();
}

process.stdin.on('data', (chunk) => {
  let start = 0;
  while (!ended) {
    const end = chunk.indexOf(10, start);
    const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
    if (!overLong) {
      size += piece.length;
      if (size > MAX_LINE_BYTES) {
        overLong = true;
        parts = [];
      } else if (piece.length) {
        parts.push(piece);
      }
    }
    if (end < 0) return;
    const line = overLong ? null : Buffer.concat(parts, size);
    parts = [];
    size = 0;
    overLong = false;
    if (answer(line)) stop();
    start = end + 1;
  }
});
process.stdin.on('end', () => {
  if (!ended && (size > 0 || overLong)) answer(overLong ? null : Buffer.concat(parts, size));
});
