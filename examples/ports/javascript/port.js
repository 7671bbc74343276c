#!/usr/bin/env node
// A Can't Stop port speaking the conformance protocol (spec/protocol.md): the
// ops of the game; reading the lines and writing the answers is the shared
// line protocol, lineproto.js.

import { existsSync } from 'node:fs';
import * as R from './rules.js';
import * as N from './notation.js';
import { explain } from './explain.js';

// The line protocol of every game's port: beside this file in a copy of the
// port, else in the layer (dicekit/ports/javascript/), three folders up.
const SHARED = ['./lineproto.js', '../../../dicekit/ports/javascript/lineproto.js'].map((p) => new URL(p, import.meta.url));
const { readingOps, serve, textOf } = await import(SHARED.find((url) => existsSync(url)) ?? SHARED[0]);

const PROTOCOL = 1;

const stateFrom = (request) => N.parseState(textOf(request, 'state'));

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
  ...readingOps(N),
  moves: (q) => ({ moves: R.legalMoves(stateFrom(q)).map(R.moveText) }),
  apply: (q) => {
    const { state, event } = R.apply(stateFrom(q), N.parseAction(textOf(q, 'action')));
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

serve({ ops: OPS, isRuleError: (e) => e instanceof R.RuleError });
