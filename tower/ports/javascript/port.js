#!/usr/bin/env node
// An Off to the Tower port speaking the JSON-lines protocol of spec/protocol.md:
// the ops of the game; reading the lines and writing the answers is the shared
// line protocol, lineproto.js, with this port's I-JSON reader (json.js).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readJson } from './json.js';
import { RuleError, apply, chanceOutcomes, legalMoves, newGame, perft, registerBoard, seedBug } from './rules.js';
import * as N from './notation.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// The first of `places` (relative to this file) that exists: beside this file in a
// copy of the port (lineproto.js, boards/), else where a checkout and an installed
// package keep it (the layer's dicekit/ports/javascript/, and tower/boards/).
const near = (...places) => places.map((p) => path.join(HERE, p)).find((p) => fs.existsSync(p)) ?? path.join(HERE, places[0]);

// The line protocol of every game's port.
const { readingOps, serve, textOf } = await import(pathToFileURL(near('lineproto.js', '../../../dicekit/ports/javascript/lineproto.js')));

// The shipped boards are the JSON files beside the schema.
const BOARDS = near('boards', '../../boards');
for (const file of fs.readdirSync(BOARDS).sort()) {
  if (file.endsWith('.json') && file !== 'schema.json') {
    registerBoard(file.slice(0, -5), readJson(fs.readFileSync(path.join(BOARDS, file), 'utf8'), 1000));
  }
}

// --bug NAME seeds one of the bugs listed in bugs.json (for the conformance study).
const argv = process.argv.slice(2);
if (argv.length) {
  const known = JSON.parse(fs.readFileSync(path.join(HERE, 'bugs.json'), 'utf8')).bugs.map((b) => b.name);
  if (argv.length !== 2 || argv[0] !== '--bug' || !known.includes(argv[1])) {
    process.stderr.write(`port.js: error: the only option is --bug NAME, NAME one of: ${known.join(', ')}\n`);
    process.exit(2);
  }
  seedBug(argv[1]);
}

const PROTOCOL = 1;

const stateOf = (q) => N.parseState(textOf(q, 'state'));

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
  ...readingOps(N),
  moves: (q) => ({ moves: legalMoves(stateOf(q)).map((m) => N.formatAction({ type: 'move', ...m })) }),
  apply: (q) => {
    const { state, event } = apply(stateOf(q), N.parseAction(textOf(q, 'action')));
    return { state: N.formatState(state), event };
  },
  chance: (q) => ({
    outcomes: chanceOutcomes(stateOf(q)).map((o) => ({ action: N.formatAction({ type: 'throw', dice: o.dice }), p: o.p })),
  }),
  perft: (q) => perft(stateOf(q)),
  quit: () => ({}),
};

serve({ ops: OPS, isRuleError: (e) => e instanceof RuleError, read: (text) => readJson(text) });
