#!/usr/bin/env node
'use strict';
// A Can't Stop port speaking the conformance protocol (spec/protocol.md):
// one JSON request per line on stdin, one JSON answer per line on stdout.

const readline = require('readline');
const R = require('./rules');
const N = require('./notation');

const PROTOCOL = 1;

function stateFrom(request) {
  if (typeof request.state !== 'string') throw new Error("the request needs 'state' (notation)");
  return N.parseState(request.state);
}

const OPS = {
  hello: () => ({
    protocol: PROTOCOL,
    name: 'cantstop JavaScript port',
    supports: { players: [1, 2, 3, 4], variants: ['A', 'B'], heights: true },
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
  quit: () => ({}),
};

function refuse(message) {
  return { seq: null, ok: false, error: { rule: null, message } };
}

function handle(line) {
  if (!line.trim()) return refuse('malformed request: an empty line');
  let q;
  try {
    q = JSON.parse(line);
  } catch (e) {
    return refuse(`malformed JSON: ${e.message}`);
  }
  if (!q || typeof q !== 'object' || Array.isArray(q)) return refuse('the request is not a JSON object');
  if (!Number.isSafeInteger(q.seq)) return refuse('seq must be an integer within ±(2**53 - 1)');
  const seq = q.seq;
  const op = typeof q.op === 'string' && Object.prototype.hasOwnProperty.call(OPS, q.op) ? OPS[q.op] : null;
  if (!op) {
    const shown = typeof q.op === 'string' ? JSON.stringify(q.op) : `of type ${typeof q.op}`;
    return { seq, ok: false, error: { rule: null, message: `unknown op ${shown}` } };
  }
  try {
    return { seq, ok: true, ...op(q) };
  } catch (e) {
    const error = { rule: e instanceof R.RuleError ? e.rule : null, message: e.message };
    if (e instanceof R.RuleError && e.at !== undefined) error.at = e.at;
    return { seq, ok: false, error };
  }
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on('line', (line) => {
  let answer;
  try {
    answer = handle(line);
  } catch (e) {
    // A defect (or a stack overflow on hostile input): answer it rather than die.
    answer = { seq: null, ok: false, error: { rule: null, message: `internal error: ${e}` } };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
  let op = null;
  try { op = JSON.parse(line).op; } catch (e) { /* answered above */ }
  if (answer.ok && op === 'quit') {
    rl.close();
    process.exit(0);
  }
});
