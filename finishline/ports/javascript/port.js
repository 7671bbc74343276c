#!/usr/bin/env node
// The finish-line race speaking the conformance protocol (spec/protocol.md, with this
// game's config, states and actions: finishline/spec/protocol.md): the ops of the
// game; reading the lines and writing the answers is the shared line protocol,
// lineproto.js.

import { existsSync, readFileSync } from 'node:fs';
import * as R from './rules.js';
import * as N from './notation.js';

// The line protocol of every game's port: beside this file in a copy of the
// port, else in the layer (dicekit/ports/javascript/), three folders up.
const SHARED = ['./lineproto.js', '../../../dicekit/ports/javascript/lineproto.js'].map((p) => new URL(p, import.meta.url));
const { readingOps, serve, textOf } = await import(SHARED.find((url) => existsSync(url)) ?? SHARED[0]);

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
  ...readingOps(N),
  moves: (q) => ({ moves: R.legalActions(N.parseState(textOf(q, 'state'))).map(N.formatAction) }),
  apply: (q) => {
    const done = R.apply(N.parseState(textOf(q, 'state')), N.parseAction(textOf(q, 'action')));
    return { state: N.formatState(done.state), event: done.event };
  },
  chance: (q) => ({ outcomes: R.chanceOutcomes(N.parseState(textOf(q, 'state'))) }),
  perft: (q) => R.perft(N.parseState(textOf(q, 'state'))),
  quit: () => ({}),
};

serve({ ops: OPS, isRuleError: (e) => e instanceof R.RuleError });
