#!/usr/bin/env node
// A Can't Stop port speaking the conformance protocol (spec/protocol.md):
// one JSON request per line on stdin, one JSON answer per line on stdout.
// Lines are read as bytes and split at \n only, so that a \r inside a line,
// bytes that are not UTF-8 and over-long lines are answered, not mangled.

import * as R from './rules.js';
import * as N from './notation.js';
import { explain } from './explain.js';
import { MAX_LINE_BYTES, TOO_LONG, LineError, decode } from './lines.js';

const PROTOCOL = 1;

function stateFrom(request) {
  if (typeof request.state !== 'string') throw new Error("the request needs 'state' (notation)");
  return N.parseState(request.state);
}

const OPS = {
  hello: () => ({
    protocol: PROTOCOL,
    name: 'cantstop JavaScript port',
    game: 'cantstop',
    supports: { players: [1, 2, 3, 4], variants: ['A', 'B'], heights: true, explain: true },
  }),
  new: (q) => {
    const rules = N.rulesFromJson('rules' in q ? q.rules : {});
    return { state: N.formatState(R.newGame(rules, 'first_player' in q ? q.first_player : 0)) };
  },
  state: (q) => {
    const s = 'json' in q ? N.stateFromJson(q.json) : N.parseState(q.text);
    return { state: N.formatState(s), json: N.stateToJson(s) };
  },
  action: (q) => {
    const a = 'json' in q ? N.actionFromJson(q.json) : N.parseAction(q.text);
    return { action: N.formatAction(a), json: N.actionToJson(a) };
  },
  moves: (q) => ({ moves: R.legalMoves(stateFrom(q)).map(R.moveText) }),
  apply: (q) => {
    const { state, event } = R.apply(stateFrom(q), N.parseAction(q.action));
    return { state: N.formatState(state), event };
  },
  rolls: (q) => ({ moves: R.rollTable(stateFrom(q)) }),
  perft: (q) => {
    const table = R.rollTable(stateFrom(q));
    return {
      choices: table.reduce((n, moves) => n + moves.length, 0),
      busts: table.filter((moves) => moves.length === 0).length,
    };
  },
  explain: (q) => {
    if ('action' in q && typeof q.action !== 'string') throw new Error("'action' must be an action in notation");
    try {
      const action = 'action' in q ? N.parseAction(q.action) : null;
      return { explanation: explain(stateFrom(q), action).toJson() };
    } catch (e) {
      if (e instanceof R.RuleError) delete e.at; // two texts: a position would not say which
      throw e;
    }
  },
  quit: () => ({}), // the loop ends the session after answering
};

// A value as JSON for a message, cut short.
function brief(value) {
  let text;
  try { text = JSON.stringify(value); } catch (e) { text = `a ${typeof value}`; }
  if (text === undefined) text = `a ${typeof value}`;
  return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}

function refuse(message, seq = null) {
  return { seq, ok: false, error: { rule: null, message } };
}

let quitting = false;

function handle(bytes) {
  quitting = false;
  let q;
  let seq;
  try {
    ({ value: q, seq } = decode(bytes));
  } catch (e) {
    if (e instanceof LineError) return refuse(`malformed request: ${e.message}`, e.seq);
    throw e;
  }
  if (!q || typeof q !== 'object' || Array.isArray(q)) return refuse(`the request is not a JSON object: ${brief(q)}`);
  if (!('seq' in q)) return refuse('the request has no seq');
  // seq is read from the line's text: 2.0 and 1e-999 are not integers, though JSON.parse makes them so.
  if (seq === null) return refuse(`seq must be an integer within ±(2**53 - 1), not ${brief(q.seq)}`);
  const op = typeof q.op === 'string' && Object.prototype.hasOwnProperty.call(OPS, q.op) ? OPS[q.op] : null;
  quitting = q.op === 'quit';
  if (!op) {
    const named = typeof q.op === 'string' ? JSON.stringify(q.op) : `of type ${typeof q.op}`;
    return { seq, ok: false, error: { rule: null, message: `unknown op ${named}` } };
  }
  try {
    return { seq, ok: true, ...op(q) };
  } catch (e) {
    const error = { rule: e instanceof R.RuleError ? e.rule : null, message: e.message };
    if (e instanceof R.RuleError && e.at !== undefined) error.at = e.at;
    return { seq, ok: false, error };
  }
}

// Answer one line (null: a line over the limit); true when it was a quit that was answered.
function answer(bytes) {
  let reply;
  try {
    reply = bytes === null ? refuse(`malformed request: ${TOO_LONG}`) : handle(bytes);
  } catch (e) {
    // A defect (or a stack overflow on hostile input): answer it rather than die.
    reply = { seq: null, ok: false, error: { rule: null, message: `internal error: ${e}` } };
    process.stderr.write(`internal error: ${e && e.stack ? e.stack : e}\n`);
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
  return reply.ok === true && quitting;
}

// Split standard input into lines at \n; a line past the limit is dropped as it
// streams in (null stands for it), and a last line without \n is still a line.
let pending = [];
let pendingBytes = 0;
let tooLong = false;

function take(chunk) {
  let start = 0;
  for (;;) {
    const end = chunk.indexOf(10, start);
    const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
    if (!tooLong) {
      pendingBytes += piece.length;
      if (pendingBytes > MAX_LINE_BYTES) {
        tooLong = true;
        pending = [];
      } else if (piece.length) {
        pending.push(piece);
      }
    }
    if (end < 0) return false;
    const line = tooLong ? null : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    tooLong = false;
    if (answer(line)) return true;
    start = end + 1;
  }
}

process.stdin.on('data', (chunk) => {
  if (take(chunk)) process.exit(0);
});
process.stdin.on('end', () => {
  if (pendingBytes > 0 || tooLong) answer(tooLong ? null : Buffer.concat(pending, pendingBytes));
  process.exit(0);
});
