// State and action notation (N1, N2) with error positions, and the JSON forms (N3),
// written from finishline/spec/notation.md.

import * as R from './rules.js';

const { RuleError, LETTERS, DEFAULT_COUNTERS, isInt, cellName } = R;
const PHASES = { r: 'roll', c: 'choose', x: 'over' };
const LETTER_OF = { roll: 'r', choose: 'c', over: 'x' };

function formatState(s) {
  const rows = [];
  for (let r = 0; r < 6; r += 1) {
    rows.push(s.board.slice(r * 4, r * 4 + 4).map((o) => (o === null ? '.' : String(o))).join(''));
  }
  let text = `${rows.join('/')} ${s.across.join('/')} ${s.player}${LETTER_OF[s.phase]}`;
  if (s.dice) text += `${s.dice[0]}${s.dice[1]}`;
  if (s.counters !== DEFAULT_COUNTERS[s.players]) text += ` n${s.counters}`;
  return text;
}

const formatAction = R.actionText;

const isDigit = (ch) => ch !== undefined && ch >= '0' && ch <= '9';
const shown = (ch) => (ch === undefined ? 'the end' : JSON.stringify(ch));

function parseState(text) {
  if (typeof text !== 'string') throw new RuleError('state notation must be a string', 'N1.1', 0);
  let i = 0;
  const fail = (message, rule, at = i) => new RuleError(message, rule, at);
  const board = [];
  for (let row = 0; row < 6; row += 1) {
    if (row > 0) {
      if (text[i] === '.' || '0123'.includes(text[i] ?? 'x')) throw fail('a row has four cells', 'N1.2');
      if (text[i] !== '/') throw fail(`expected '/' before row ${row + 1}, found ${shown(text[i])}`, 'N1.2');
      i += 1;
    }
    for (let k = 0; k < 4; k += 1) {
      const ch = text[i];
      if (ch === '.') board.push(null);
      else if (ch !== undefined && '0123'.includes(ch)) board.push(Number(ch));
      else throw fail(`expected '.' or a player's number, found ${shown(ch)}`, 'N1.2');
      i += 1;
    }
  }
  if (text[i] === '/') throw fail('the board has six rows', 'N1.2');
  if (text[i] === '.' || (text[i] !== undefined && '0123'.includes(text[i]))) throw fail('a row has four cells', 'N1.2');
  if (text[i] !== ' ') throw fail(`expected a space before the counters across, found ${shown(text[i])}`, 'N1.1');
  i += 1;
  const acrossAt = i;
  const across = [];
  const spots = [];
  for (;;) {
    if (!isDigit(text[i])) throw fail(`expected a count of counters across, found ${shown(text[i])}`, 'N1.3');
    spots.push(i);
    across.push(Number(text[i]));
    i += 1;
    if (text[i] !== '/') break;
    i += 1;
  }
  if (isDigit(text[i])) throw fail('a count across is one digit', 'N1.3');
  if (text[i] !== ' ') throw fail(`expected a space before the turn, found ${shown(text[i])}`, 'N1.1');
  i += 1;
  const turnAt = i;
  if (!isDigit(text[i])) throw fail(`expected the player whose turn it is, found ${shown(text[i])}`, 'N1.4');
  const player = Number(text[i]);
  if (player >= across.length) throw fail(`player ${player} does not exist`, 'N1.4');
  i += 1;
  const phase = PHASES[text[i]];
  if (!phase) throw fail(`expected a phase letter r, c or x, found ${shown(text[i])}`, 'N1.4');
  i += 1;
  let dice = null;
  if (phase === 'choose') {
    const start = i;
    for (let k = 0; k < 2; k += 1) {
      if (text[i] === undefined || !'123456'.includes(text[i])) throw fail(`expected two dice from 1 to 6, found ${shown(text[i])}`, 'N1.4');
      i += 1;
    }
    dice = [Number(text[start]), Number(text[start + 1])];
    if (dice[0] > dice[1]) throw fail('the dice of a state are written in order', 'N1.4', start);
  }
  let counters;
  let countersAt = 0;
  if (text[i] === ' ') {
    i += 1;
    if (text[i] !== 'n') throw fail(`expected the option n, found ${shown(text[i])}`, 'N1.5');
    const optionAt = i;
    i += 1;
    if (!isDigit(text[i])) throw fail(`expected the number of counters, found ${shown(text[i])}`, 'N1.5');
    counters = Number(text[i]);
    countersAt = i;
    i += 1;
    if (counters === DEFAULT_COUNTERS[across.length]) throw fail('the default number of counters is not written', 'N1.5', optionAt);
    if (text[i] === ' ') throw fail('there is one option at most', 'N1.5', i + 1);
  }
  if (i !== text.length) throw fail(`unexpected ${shown(text[i])}`, 'N1.1');
  // N1.6: the checks of a text read in full.
  if (across.length < 2 || across.length > 4) throw fail('a game has 2, 3 or 4 players', 'R11.1', acrossAt);
  let config;
  try {
    config = R.makeConfig(across.length, counters);
  } catch (e) {
    if (e instanceof RuleError) e.at = countersAt;
    throw e;
  }
  for (let c = 0; c < 24; c += 1) {
    if (board[c] !== null && board[c] >= across.length) {
      throw fail(`cell ${cellName(c)} names player ${board[c]}`, 'N1.2', c + Math.floor(c / 4));
    }
  }
  for (let p = 0; p < across.length; p += 1) {
    const onBoard = board.filter((o) => o === p).length;
    if (onBoard + across[p] > config.counters) throw fail(`player ${p} has too many counters`, 'R12.3', spots[p]);
  }
  try {
    return R.makeState(config, player, phase, dice, board, across);
  } catch (e) {
    if (e instanceof RuleError) e.at = turnAt;
    throw e;
  }
}

// One cell at text[i]: a letter A to D and a row 1 to 6.
function readCell(text, i, rule) {
  const letter = text[i];
  if (letter === undefined || !LETTERS.includes(letter)) throw new RuleError(`expected a cell's letter, found ${shown(letter)}`, rule, i);
  const row = text[i + 1];
  if (row === undefined || !'123456'.includes(row)) throw new RuleError(`expected a row from 1 to 6, found ${shown(row)}`, rule, i + 1);
  return (Number(row) - 1) * 4 + LETTERS.indexOf(letter);
}

function parseAction(text) {
  if (typeof text !== 'string') throw new RuleError('action notation must be a string', 'N2.1', 0);
  if (text[0] === 'r') {
    for (let k = 1; k <= 2; k += 1) {
      if (text[k] === undefined || !'123456'.includes(text[k])) throw new RuleError('expected two dice from 1 to 6', 'N2.2', k);
    }
    if (text.length !== 3) throw new RuleError('a roll is exactly two dice', 'N2.2', 3);
    return { type: 'roll', dice: [Number(text[1]), Number(text[2])] };
  }
  if (text.startsWith('double:')) {
    const cell = readCell(text, 7, 'N2.5');
    if (text.length !== 9) throw new RuleError('unexpected text after the double advance', 'N2.1', 9);
    return { type: 'double', cell };
  }
  if (text[0] !== '+' && !LETTERS.includes(text[0] ?? 'x')) {
    throw new RuleError('expected a roll, a play, a sideways step or a double advance', 'N2.1', 0);
  }
  if (text[0] !== '+') {
    const from = readCell(text, 0, 'N2.3');
    if (text[2] === '-') {
      const to = readCell(text, 3, 'N2.4');
      if (Math.floor(to / 4) !== Math.floor(from / 4) || Math.abs(to - from) !== 1) {
        throw new RuleError('a sideways step goes to a neighbour in the same row', 'N2.4', 3);
      }
      if (text.length !== 5) throw new RuleError('unexpected text after the sideways step', 'N2.1', 5);
      return { type: 'sideways', from, to };
    }
    if (text[2] !== '^') throw new RuleError(`expected '^' or '-' after the cell, found ${shown(text[2])}`, 'N2.1', 2);
  }
  const moves = [];
  const starts = [];
  let i = 0;
  for (;;) {
    starts.push(i);
    const enter = text[i] === '+';
    if (enter) i += 1;
    else if (text[i] === undefined || !LETTERS.includes(text[i])) throw new RuleError('expected a move', 'N2.3', i);
    const cell = readCell(text, i, 'N2.3');
    i += 2;
    const limit = enter || cell < 4 ? 1 : 2;
    let rows = 0;
    while (text[i] === '^') {
      if (rows === limit) throw new RuleError('the move goes too far', 'N2.3', i);
      rows += 1;
      i += 1;
    }
    if (!enter && rows === 0) throw new RuleError("expected '^' after the cell", 'N2.3', i);
    moves.push({ cell, enter, rows });
    if (text[i] !== ',') break;
    if (moves.length === 2) throw new RuleError('a play has at most two moves', 'N2.3', i);
    i += 1;
  }
  if (i !== text.length) throw new RuleError(`unexpected ${shown(text[i])}`, 'N2.1', i);
  let dice = 0;
  for (let k = 0; k < moves.length; k += 1) {
    dice += moves[k].enter ? 1 + moves[k].rows : moves[k].rows;
    if (dice > 2) throw new RuleError('a play uses at most two dice', 'N2.3', starts[k]);
  }
  if (moves.length === 2) {
    const order = compareMoves(moves[0], moves[1]);
    if (order >= 0) throw new RuleError('the moves of a play are out of order, or repeated', 'N2.3', starts[1]);
  }
  return { type: 'play', moves };
}

// Two moves in the order of N2.3; 0 when they are of the same kind from the same cell.
function compareMoves(a, b) {
  if (a.enter !== b.enter) return a.enter ? 1 : -1;
  if (a.cell !== b.cell) return a.cell - b.cell;
  return 0;
}

// -- JSON forms (N3) -----------------------------------------------------------------

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const CELL_NAMES = Array.from({ length: 24 }, (_, c) => cellName(c));
const brief = (v) => {
  const t = JSON.stringify(v);
  return t === undefined ? String(v) : t.length > 40 ? `${t.slice(0, 37)}...` : t;
};

function fields(data, required, optional, what, rule) {
  if (!isObject(data)) throw new RuleError(`${what} must be a JSON object`, rule);
  for (const key of required) if (!(key in data)) throw new RuleError(`${what} lacks the field ${key}`, rule);
  for (const key of Object.keys(data)) {
    if (!required.includes(key) && !optional.includes(key)) throw new RuleError(`${what} has the unknown field ${key}`, rule);
  }
  return data;
}

const SAFE = (v) => isInt(v) && Math.abs(v) < 1e15;

function configFromJson(data) {
  const obj = fields(data, [], ['players', 'counters'], 'a configuration', 'N3.1');
  for (const key of ['players', 'counters']) {
    if (key in obj && !isInt(obj[key])) throw new RuleError(`${key} must be an integer, not ${brief(obj[key])}`, 'N3.1');
  }
  return R.makeConfig('players' in obj ? obj.players : 2, obj.counters);
}

function configToJson(config, full = true) {
  if (full) return { players: config.players, counters: config.counters };
  const out = {};
  if (config.players !== 2) out.players = config.players;
  if (config.counters !== DEFAULT_COUNTERS[config.players]) out.counters = config.counters;
  return out;
}

function stateToJson(s) {
  const board = {};
  s.board.forEach((owner, c) => { if (owner !== null) board[CELL_NAMES[c]] = owner; });
  return {
    config: configToJson(s),
    player: s.player,
    phase: s.phase,
    dice: s.dice ? [...s.dice] : null,
    board,
    hand: s.across.map((_, p) => R.hand(s, p)),
    across: [...s.across],
    winner: R.winnerOf(s),
  };
}

function stateFromJson(data) {
  const obj = fields(data, ['config', 'player', 'phase', 'board', 'across'], ['dice', 'hand', 'winner'], 'a state', 'N3.1');
  const config = configFromJson(obj.config);
  const n = config.players;
  if (!['roll', 'choose', 'over'].includes(obj.phase)) throw new RuleError(`unknown phase ${brief(obj.phase)}`, 'N3.1');
  if (!SAFE(obj.player)) throw new RuleError('player must be an integer', 'N3.1');
  if (!Array.isArray(obj.across) || obj.across.length !== n || !obj.across.every(SAFE)) {
    throw new RuleError(`across must be a list of ${n} integers`, 'N3.1');
  }
  if (!isObject(obj.board)) throw new RuleError('board must be an object from cell to player', 'N3.1');
  const board = new Array(24).fill(null);
  for (const [key, owner] of Object.entries(obj.board)) {
    const c = CELL_NAMES.indexOf(key);
    if (c < 0) throw new RuleError(`${brief(key)} is not a cell`, 'N3.1');
    if (!SAFE(owner)) throw new RuleError(`${key} maps to ${brief(owner)}, not a player`, 'N3.1');
    board[c] = owner;
  }
  const dice = 'dice' in obj ? obj.dice : null;
  if (dice !== null && (!Array.isArray(dice) || dice.length !== 2 || !dice.every(SAFE))) {
    throw new RuleError('dice must be null or a list of two numbers', 'N3.1');
  }
  if (obj.player < 0 || obj.player >= n) throw new RuleError(`player must be from 0 to ${n - 1}`, 'R12.4');
  for (const owner of board) {
    if (owner !== null && (owner < 0 || owner >= n)) throw new RuleError('the board names a player who does not exist', 'N3.1');
  }
  for (const count of obj.across) if (count < 0) throw new RuleError('a count across is not negative', 'R12.3');
  const state = R.makeState(config, obj.player, obj.phase, dice === null ? null : [...dice], board, [...obj.across]);
  if ('hand' in obj) {
    const hands = stateToJson(state).hand;
    if (JSON.stringify(obj.hand) !== JSON.stringify(hands)) throw new RuleError('hand does not match the counters', 'R12.3');
  }
  if ('winner' in obj && obj.winner !== R.winnerOf(state)) {
    if (obj.winner !== null && !isInt(obj.winner)) throw new RuleError('winner must be null or a player', 'N3.1');
    throw new RuleError('winner does not match the counters across', 'R10.1');
  }
  return state;
}

function actionToJson(a) {
  if (a.type === 'roll') return { type: 'roll', dice: [...a.dice] };
  if (a.type === 'play') return { type: 'play', moves: a.moves.map((m) => ({ cell: CELL_NAMES[m.cell], enter: m.enter, rows: m.rows })) };
  if (a.type === 'sideways') return { type: 'sideways', from: CELL_NAMES[a.from], to: CELL_NAMES[a.to] };
  return { type: 'double', cell: CELL_NAMES[a.cell] };
}

function cellFromJson(value) {
  const c = CELL_NAMES.indexOf(value);
  if (typeof value !== 'string' || c < 0) throw new RuleError(`${brief(value)} is not a cell`, 'N3.2');
  return c;
}

function actionFromJson(data) {
  const kinds = { roll: ['dice'], play: ['moves'], sideways: ['from', 'to'], double: ['cell'] };
  if (!isObject(data) || !Object.prototype.hasOwnProperty.call(kinds, data.type)) {
    throw new RuleError('an action is an object whose type is roll, play, sideways or double', 'N3.2');
  }
  const obj = fields(data, ['type', ...kinds[data.type]], [], `a ${data.type}`, 'N3.2');
  if (obj.type === 'roll') {
    if (!Array.isArray(obj.dice)) throw new RuleError('dice must be a list', 'N3.2');
    if (obj.dice.length !== 2 || !obj.dice.every((d) => isInt(d) && d >= 1 && d <= 6)) {
      throw new RuleError('a roll is two dice from 1 to 6', 'R4.1');
    }
    return { type: 'roll', dice: [...obj.dice] };
  }
  if (obj.type === 'sideways') {
    const from = cellFromJson(obj.from);
    const to = cellFromJson(obj.to);
    if (Math.floor(from / 4) !== Math.floor(to / 4) || Math.abs(from - to) !== 1) {
      throw new RuleError('a sideways step goes to a neighbour in the same row', 'N2.4');
    }
    return { type: 'sideways', from, to };
  }
  if (obj.type === 'double') return { type: 'double', cell: cellFromJson(obj.cell) };
  if (!Array.isArray(obj.moves) || obj.moves.length < 1 || obj.moves.length > 2) {
    throw new RuleError('moves must be a list of one or two moves', 'N3.2');
  }
  const moves = obj.moves.map((item) => {
    const m = fields(item, ['cell', 'enter', 'rows'], [], 'a move', 'N3.2');
    if (typeof m.enter !== 'boolean') throw new RuleError('enter must be true or false', 'N3.2');
    if (!SAFE(m.rows)) throw new RuleError('rows must be an integer', 'N3.2');
    const cell = cellFromJson(m.cell);
    const low = m.enter ? 0 : 1;
    if (m.rows < low || m.rows > low + 1 || (!m.enter && m.rows === 2 && cell < 4)) {
      throw new RuleError('the move goes too far', 'N2.3');
    }
    return { cell, enter: m.enter, rows: m.rows };
  });
  const dice = moves.reduce((n, m) => n + (m.enter ? 1 + m.rows : m.rows), 0);
  if (dice > 2) throw new RuleError('a play uses at most two dice', 'N2.3');
  if (moves.length === 2 && compareMoves(moves[0], moves[1]) >= 0) {
    throw new RuleError('the moves of a play are out of order, or repeated', 'N2.3');
  }
  return { type: 'play', moves };
}

export {
  formatState, formatAction, parseState, parseAction,
  configFromJson, configToJson, stateToJson, stateFromJson, actionToJson, actionFromJson,
};
