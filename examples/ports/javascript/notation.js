// State and action notation (spec/notation.md, N1 and N2) and the JSON form (N3).

import * as R from './rules.js';
import { RuleError, isInt, cols, sameMap } from './rules.js';

const PHASE_LETTER = { roll: 'r', choose: 'c', decide: 'd', over: 'x' };
const LETTER_PHASE = { r: 'roll', c: 'choose', d: 'decide', x: 'over' };

const cellsText = (values) => cols(values).map((c) => `${c}:${values[c]}`).join(',') || '-';

function formatState(s) {
  const parts = [
    s.squares.map(cellsText).join('/'),
    cellsText(s.markers),
    `${s.player}${PHASE_LETTER[s.phase]}${s.dice ? s.dice.join('') : ''}`,
  ];
  if (!sameMap(s.rules.heights, R.STANDARD)) parts.push(`h${cellsText(s.rules.heights)}`);
  if (s.rules.columnsToWin !== 3) parts.push(`w${s.rules.columnsToWin}`);
  if (s.rules.variant) parts.push(s.rules.variant);
  return parts.join(' ');
}

function formatAction(a) {
  if (a.type === 'roll') return `r${a.dice.join('')}`;
  if (a.type === 'move') return a.columns.join('+');
  return 'stop';
}

// A cursor over notation text; errors carry the index of the offending character.
class Reader {
  constructor(text) { this.text = text; this.pos = 0; }

  peek() { return this.pos < this.text.length ? this.text[this.pos] : ''; }

  fail(message, rule, at = this.pos) { return new RuleError(message, rule, at); }

  expect(ch, rule, what) {
    if (this.peek() !== ch) throw this.fail(`expected ${what}`, rule);
    this.pos += 1;
  }

  number(rule, what) {
    const start = this.pos;
    while (/[0-9]/.test(this.peek())) this.pos += 1;
    const digits = this.text.slice(start, this.pos);
    if (!digits) throw this.fail(`expected ${what}`, rule);
    if (digits.length > 1 && digits[0] === '0') throw this.fail(`${what} has a leading zero`, rule, start);
    if (digits.length > 3) throw this.fail(`${what} is too large`, rule, start);
    return Number(digits);
  }

  // "-" or "col:value,col:value" with columns 2..12 strictly increasing; spots, if
  // given, receives for each column the index of the column and of its value.
  cells(rule, what, spots) {
    if (this.peek() === '-') { this.pos += 1; return {}; }
    const out = {};
    let last = 0;
    for (;;) {
      const start = this.pos;
      const column = this.number(rule, 'a column number');
      if (column < 2 || column > 12) throw this.fail(`column ${column} is not from 2 to 12`, rule, start);
      if (column <= last) throw this.fail('columns must increase', rule, start);
      last = column;
      this.expect(':', rule, "':'");
      if (spots) spots[column] = { column: start, value: this.pos };
      out[column] = this.number(rule, what);
      if (this.peek() !== ',') return out;
      this.pos += 1;
    }
  }
}

function parseState(text) {
  if (typeof text !== 'string') throw new RuleError('state notation must be a string', 'N1.1', 0);
  const r = new Reader(text);
  const squares = [];
  const squareSpots = [];
  for (;;) {
    squareSpots.push({});
    squares.push(r.cells('N1.2', "a square's space", squareSpots[squareSpots.length - 1]));
    if (r.peek() !== '/') break;
    r.pos += 1;
  }
  if (squares.length > 4) throw r.fail('at most four players', 'R15.1', 0);
  r.expect(' ', 'N1.1', 'a space before the markers');
  const markersAt = r.pos;
  const markerSpots = {};
  const markers = r.cells('N1.3', "a marker's space", markerSpots);
  r.expect(' ', 'N1.1', 'a space before the turn');
  const turnAt = r.pos;
  const player = r.number('N1.4', 'the player');
  if (player >= squares.length) throw r.fail(`player ${player} does not exist`, 'N1.4', turnAt);
  const letter = r.peek();
  if (!Object.prototype.hasOwnProperty.call(LETTER_PHASE, letter)) throw r.fail('expected a phase letter r, c, d or x', 'N1.4');
  r.pos += 1;
  const phase = LETTER_PHASE[letter];
  let dice = null;
  if (phase === 'choose') {
    const start = r.pos;
    for (let i = 0; i < 4; i++) {
      const ch = text[start + i];
      if (ch === undefined || !'123456'.includes(ch)) throw r.fail('expected four dice 1 to 6', 'N1.4', start + i);
    }
    dice = text.slice(start, start + 4).split('').map(Number);
    for (let i = 1; i < 4; i++) if (dice[i] < dice[i - 1]) throw r.fail('dice are sorted in a state', 'N1.4', start);
    r.pos += 4;
  }
  let heights = R.STANDARD;
  let toWin = 3;
  let variant = null;
  const optionAt = {};
  const heightSpots = {};
  let order = 0;
  const RANK = { h: 1, w: 2, A: 3, B: 3 };
  while (r.peek() === ' ') {
    r.pos += 1;
    const start = r.pos;
    const tag = r.peek();
    const rank = Object.prototype.hasOwnProperty.call(RANK, tag) ? RANK[tag] : undefined;
    if (rank === undefined) throw r.fail('expected an option h, w, A or B', 'N1.5');
    if (rank <= order) throw r.fail('options appear once each, in the order h, w, A/B', 'N1.5');
    order = rank;
    optionAt[tag] = start;
    r.pos += 1;
    if (tag === 'h') {
      heights = r.cells('N1.5', "a column's height", heightSpots);
      if (sameMap(heights, R.STANDARD)) throw r.fail('the standard board is written without h', 'N1.5', start);
    } else if (tag === 'w') {
      toWin = r.number('N1.5', 'the number of columns to win');
      if (toWin === 3) throw r.fail('w3 is the default and is not written', 'N1.5', start);
    } else {
      variant = tag;
    }
  }
  if (r.pos !== text.length) throw r.fail('unexpected text', 'N1.1');
  let rules;
  try {
    rules = R.makeRules(squares.length, toWin, heights, variant);
  } catch (e) {
    // Where a configuration error points (N1.6).
    if (e instanceof RuleError) {
      const first = Math.min(...Object.values(optionAt));
      if (e.rule === 'R15.1') e.at = 0;
      else if (e.cell) e.at = heightSpots[e.cell.column].value;
      else if (e.rule === 'R15.2' && optionAt.w !== undefined) e.at = optionAt.w;
      else e.at = first;
    }
    throw e;
  }
  try {
    return R.checkState({ rules, player, phase, dice, markers, squares });
  } catch (e) {
    if (e instanceof RuleError) {
      // Where an invariant error points (N1.6): the cell that breaks it, or the field.
      if (e.cell) {
        const spots = e.cell.player === -1 ? markerSpots : squareSpots[e.cell.player];
        e.at = spots[e.cell.column][e.cell.part];
      } else if (e.rule === 'R16.1') e.at = markersAt;
      else if (['R16.5', 'R10.1', 'R12.1'].includes(e.rule)) e.at = turnAt;
      else e.at = 0;
    }
    throw e;
  }
}

function parseAction(text) {
  if (typeof text !== 'string') throw new RuleError('action notation must be a string', 'N2.1', 0);
  if (text === 'stop') return { type: 'stop' };
  const r = new Reader(text);
  if (r.peek() === 'r') {
    r.pos += 1;
    for (let i = 0; i < 4; i++) {
      if (!r.peek() || !'123456'.includes(r.peek())) throw r.fail('expected four dice 1 to 6', 'N2.2');
      r.pos += 1;
    }
    if (r.pos !== text.length) throw r.fail('a roll is exactly four dice', 'N2.2');
    return { type: 'roll', dice: text.slice(1).split('').map(Number) };
  }
  if (!/[0-9]/.test(r.peek())) throw r.fail('expected a roll, a move or stop', 'N2.1');
  const columns = [r.number('N2.3', 'a sum')];
  if (columns[0] < 2 || columns[0] > 12) throw r.fail('a sum is from 2 to 12', 'N2.3', 0);
  if (r.peek() === '+') {
    r.pos += 1;
    const start = r.pos;
    columns.push(r.number('N2.3', 'a second sum'));
    if (columns[1] < 2 || columns[1] > 12) throw r.fail('a sum is from 2 to 12', 'N2.3', start);
    if (columns[1] < columns[0]) throw r.fail('sums are written in increasing order', 'N2.3', start);
  }
  if (r.pos !== text.length) throw r.fail('unexpected text', 'N2.1');
  return { type: 'move', columns };
}

// ---- JSON form (N3) -----------------------------------------------------------

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const mapOut = (m) => Object.fromEntries(cols(m).map((c) => [String(c), m[c]]));

function rulesToJson(rules) {
  return { players: rules.players, columns_to_win: rules.columnsToWin, heights: mapOut(rules.heights), variant: rules.variant };
}

function stateToJson(s) {
  const won = R.wonColumns(s.rules, s.squares);
  return {
    rules: rulesToJson(s.rules),
    player: s.player,
    phase: s.phase,
    dice: s.dice,
    markers: mapOut(s.markers),
    squares: s.squares.map(mapOut),
    won: mapOut(won),
    winner: R.winnerOf(s.rules, won),
  };
}

function actionToJson(a) {
  return a.type === 'roll' ? { type: 'roll', dice: a.dice } : a.type === 'move' ? { type: 'move', columns: a.columns } : { type: 'stop' };
}

const bad = (message, rule = 'N3.1') => new RuleError(message, rule);

function fields(data, required, optional, what) {
  if (!isObject(data)) throw bad(`${what} must be a JSON object`);
  for (const k of required) if (!(k in data)) throw bad(`${what} lacks ${k}`);
  for (const k of Object.keys(data)) if (!required.includes(k) && !optional.includes(k)) throw bad(`${what} has unknown field ${k}`);
  return data;
}

function mapIn(data, what) {
  if (!isObject(data)) throw bad(`${what} must be an object of column to number`);
  const out = {};
  for (const [k, v] of Object.entries(data)) {
    if (!/^(0|[1-9][0-9]*)$/.test(k)) throw bad(`${what}: ${k} is not a column number`);
    if (!isInt(v)) throw bad(`${what}: column ${k} maps to ${JSON.stringify(v)}`);
    out[Number(k)] = v;
  }
  return out;
}

function rulesFromJson(data) {
  const obj = fields(data, [], ['players', 'columns_to_win', 'heights', 'variant'], 'rules');
  const variant = 'variant' in obj ? obj.variant : null;
  if (variant !== null && variant !== 'A' && variant !== 'B') throw bad('unknown variant', 'R14.3');
  const heights = 'heights' in obj ? mapIn(obj.heights, 'heights') : R.STANDARD;
  return R.makeRules(
    'players' in obj ? obj.players : 2,
    'columns_to_win' in obj ? obj.columns_to_win : 3,
    heights,
    variant,
  );
}

function stateFromJson(data) {
  const obj = fields(data, ['rules', 'player', 'phase', 'markers', 'squares'], ['dice', 'won', 'winner'], 'state');
  const rules = rulesFromJson(obj.rules);
  if (!['roll', 'choose', 'decide', 'over'].includes(obj.phase)) throw bad('unknown phase');
  if (!Array.isArray(obj.squares) || obj.squares.length !== rules.players) {
    throw bad('squares must hold one object per player', 'R16.2');
  }
  const dice = 'dice' in obj ? obj.dice : null;
  if (dice !== null && !Array.isArray(dice)) throw bad('dice must be a list or null');
  const markers = mapIn(obj.markers, 'markers');
  const squares = obj.squares.map((sq) => mapIn(sq, 'squares'));
  const s = R.checkState({ rules, player: obj.player, phase: obj.phase, dice, markers, squares });
  const won = R.wonColumns(rules, s.squares);
  if ('won' in obj && !sameMap(mapIn(obj.won, 'won'), won)) throw bad('won does not match the squares', 'R9.1');
  if ('winner' in obj && obj.winner !== R.winnerOf(rules, won)) throw bad('winner does not match the squares', 'R12.1');
  return s;
}

function actionFromJson(data) {
  if (!isObject(data) || !['roll', 'move', 'stop'].includes(data.type)) throw bad('an action has type roll, move or stop', 'N3.2');
  if (data.type === 'roll') {
    const obj = fields(data, ['type', 'dice'], [], 'roll');
    const d = obj.dice;
    if (!Array.isArray(d) || d.length !== 4 || !d.every((x) => isInt(x) && x >= 1 && x <= 6)) {
      throw bad('a roll is four dice 1 to 6', 'R4.1');
    }
    return { type: 'roll', dice: [...d] };
  }
  if (data.type === 'move') {
    const obj = fields(data, ['type', 'columns'], [], 'move');
    const c = obj.columns;
    if (!Array.isArray(c) || c.length < 1 || c.length > 2 || !c.every((x) => isInt(x) && x >= 2 && x <= 12)) {
      throw bad('a move is one or two sums 2 to 12', 'R4.3');
    }
    if (c.length === 2 && c[1] < c[0]) throw bad('the sums of a move are listed in increasing order', 'N3.2');
    return { type: 'move', columns: [...c] };
  }
  fields(data, ['type'], [], 'stop');
  return { type: 'stop' };
}

export {
  formatState, formatAction, parseState, parseAction, stateToJson, actionToJson, rulesFromJson, stateFromJson, actionFromJson,
};
