// The rules of the finish-line race, written from finishline/spec/rules/.
//
// A state is a plain object, never changed once made:
//   { players, counters, player, phase: 'roll' | 'choose' | 'over',
//     dice: [low, high] | null, board: Array(24) of player or null, across: [n, ...] }
// Cell i is row Math.floor(i / 4) + 1 and letter 'ABCD'[i % 4], so row 1 comes first.
// An action is { type: 'roll', dice }, { type: 'play', moves: [{ cell, enter, rows }] },
// { type: 'sideways', from, to } or { type: 'double', cell }, cells as indices.

const LETTERS = 'ABCD';

// The seeded bug switched on (bugs.json), or '' for the rules as the spec states them.
let BUG = '';
function setBug(name) {
  BUG = name;
}
const DEFAULT_COUNTERS = { 2: 6, 3: 5, 4: 4 };

class RuleError extends Error {
  // rule: the spec rule id; at: for notation, the index of the offending character.
  constructor(message, rule, at) {
    super(message);
    this.rule = rule;
    if (at !== undefined) this.at = at;
  }
}

const isInt = (v) => typeof v === 'number' && Number.isInteger(v);
const rowOf = (cell) => Math.floor(cell / 4) + 1;
const cellName = (cell) => `${LETTERS[cell % 4]}${rowOf(cell)}`;

// R11: a configuration. counters === undefined takes the number of R2.2.
function makeConfig(players, counters) {
  if (!isInt(players) || players < 2 || players > 4) {
    throw new RuleError(`players must be 2, 3 or 4, not ${JSON.stringify(players)}`, 'R11.1');
  }
  if (counters === undefined) return { players, counters: DEFAULT_COUNTERS[players] };
  if (!isInt(counters) || counters < 1 || counters > 6) {
    throw new RuleError(`counters must be from 1 to 6, not ${JSON.stringify(counters)}`, 'R11.2');
  }
  return { players, counters };
}

function hand(state, p) {
  let onBoard = 0;
  for (const owner of state.board) if (owner === p) onBoard += 1;
  return state.counters - onBoard - state.across[p];
}

function winnerOf(state) {
  return state.phase === 'over' ? state.player : null;
}

// R2.3, R2.4: the opening state.
function newGame(config, first = 0) {
  if (!isInt(first) || first < 0 || first >= config.players) {
    throw new RuleError(`first_player must be a player from 0 to ${config.players - 1}`, 'R2.4');
  }
  return makeState(config, first, 'roll', null, new Array(24).fill(null), new Array(config.players).fill(0));
}

// Make a state, checking R12 in the order of N1.6: counters (R12.3), the winner (R10.1),
// the dice (R4.1, R12.4), then that the dice offer an action (R9.1). Throws RuleError.
function makeState(config, player, phase, dice, board, across) {
  const state = { players: config.players, counters: config.counters, player, phase, dice, board, across };
  for (let p = 0; p < config.players; p += 1) {
    if (hand(state, p) < 0) {
      throw new RuleError(`player ${p} has more counters on the board and across than ${config.counters}`, 'R12.3');
    }
  }
  const done = [];
  for (let p = 0; p < config.players; p += 1) if (across[p] === config.counters) done.push(p);
  if (done.length > 1) throw new RuleError('two players have every counter across', 'R10.1');
  if (phase === 'over' && (done.length === 0 || done[0] !== player)) {
    throw new RuleError('a finished game names its winner, who has every counter across', 'R10.1');
  }
  if (phase !== 'over' && done.length) throw new RuleError(`player ${done[0]} has won, so the game is over`, 'R10.1');
  if (phase === 'choose') {
    if (!Array.isArray(dice) || dice.length !== 2 || !dice.every((d) => isInt(d) && d >= 1 && d <= 6)) {
      throw new RuleError('a state choosing needs two dice 1 to 6', 'R4.1');
    }
    state.dice = dice[0] <= dice[1] ? [dice[0], dice[1]] : [dice[1], dice[0]];
    if (!legal(state).length) throw new RuleError('these dice offer no legal action', 'R9.1');
  } else if (dice !== null) {
    throw new RuleError('only a state choosing has dice', 'R12.4');
  }
  return Object.freeze(state);
}

// -- the plays of a roll (R4, R5, R6, R8.1, R8.2) --------------------------------
//
// Every order of the dice is searched, die by die. Each counter is followed by
// where it started: its cell on the board, or 'new' when a die places it. The
// play is then what happened to each counter that moved.

function moveKey(m) {
  return [m.enter ? 1 : 0, m.cell, m.rows];
}

function compareKeys(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const x = a[i];
    const y = b[i];
    const d = Array.isArray(x) ? compareKeys(x, y) : x - y;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function moveText(m) {
  return `${m.enter ? '+' : ''}${cellName(m.cell)}${'^'.repeat(m.rows)}`;
}

function actionText(a) {
  if (a.type === 'roll') return `r${a.dice[0]}${a.dice[1]}`;
  if (a.type === 'play') return a.moves.map(moveText).join(',');
  if (a.type === 'sideways') return `${cellName(a.from)}-${cellName(a.to)}`;
  return `double:${cellName(a.cell)}`;
}

function searchPlays(state) {
  const me = state.player;
  const [a, b] = state.dice;
  const orders = a === b || BUG === 'low-die-first' ? [[a, b]] : [[a, b], [b, a]];
  const found = new Map(); // text -> { action, board, across, used }
  let most = 0;
  // tracks: counter origin key -> { cell (start or placement), enter, rows, at (where it is now) }
  function record(tracks, board, across, used) {
    if (used === 0) return;
    const moves = [...tracks.values()]
      .map((t) => ({ cell: t.cell, enter: t.enter, rows: t.rows }))
      .sort((x, y) => compareKeys(moveKey(x), moveKey(y)));
    const action = { type: 'play', moves };
    const text = actionText(action);
    if (!found.has(text)) found.set(text, { action, board, across, used });
    most = Math.max(most, used);
  }
  function go(dice, board, inHand, across, tracks, used) {
    record(tracks, board, across, used);
    if (!dice.length) return;
    const [die, ...rest] = dice;
    for (let letter = 0; letter < 4; letter += 1) {
      const cell = (die - 1) * 4 + letter;
      const owner = board[cell];
      if (owner === null && (inHand > 0 || BUG === 'hand-unlimited')) { // R5.1, R5.2
        const next = board.slice();
        next[cell] = me;
        const t = new Map(tracks);
        t.set(`new${cell}`, { cell, enter: true, rows: 0, at: cell });
        go(rest, next, inHand - 1, across, t, used + 1);
      } else if (owner === me && (cell < 4 || board[cell - 4] === null
        || (BUG === 'bump-blocker' && board[cell - 4] !== me))) { // R6.1, R6.4, R6.5
        const next = board.slice();
        next[cell] = null;
        if (cell >= 4) next[cell - 4] = me;
        const t = new Map(tracks);
        let key = null;
        for (const [k, track] of t) if (track.at === cell) key = k;
        const old = key === null ? { cell, enter: false, rows: 0 } : t.get(key);
        if (BUG === 'counter-once' && old.rows > 0) continue;
        if (BUG === 'place-no-move' && old.enter) continue;
        t.set(key === null ? `old${cell}` : key, { ...old, rows: old.rows + 1, at: cell >= 4 ? cell - 4 : -1 });
        go(rest, next, inHand, cell < 4 ? across + 1 : across, t, used + 1);
      }
    }
  }
  for (const order of orders) go(order, state.board, hand(state, me), state.across[me], new Map(), 0);
  return [...found.values()].filter((f) => f.used === most || BUG === 'one-die-optional');
}

function neighbours(cell) {
  const out = [];
  if (cell % 4 > 0) out.push(cell - 1);
  if (cell % 4 < 3) out.push(cell + 1);
  return out;
}

// Every legal action of a CHOOSE state, in the order of N2.6, each with the board and
// the player's count across it leaves.
function legal(state) {
  if (state.phase !== 'choose') return [];
  const me = state.player;
  const [a, b] = state.dice;
  const out = searchPlays(state).sort((x, y) =>
    compareKeys(x.action.moves.map(moveKey), y.action.moves.map(moveKey)));
  if (a + b === 7) { // R7.1
    for (let cell = 0; cell < 24; cell += 1) {
      if (state.board[cell] !== me) continue;
      for (const to of neighbours(cell)) {
        if (state.board[to] !== null && !(BUG === 'sideways-bumps' && state.board[to] !== me)) continue;
        const board = state.board.slice();
        board[cell] = null;
        board[to] = me;
        out.push({ action: { type: 'sideways', from: cell, to }, board, across: state.across[me] });
      }
    }
  }
  if (a === b) { // R8.3
    const advances = [];
    for (let cell = 0; cell < 24; cell += 1) {
      const owner = state.board[cell];
      const rival = BUG === 'double-advance-rival' && owner !== null && owner !== me && cell >= 4;
      if ((owner !== me && !rival) || (cell >= 4 && state.board[cell - 4] !== null)) continue;
      const board = state.board.slice();
      board[cell] = null;
      if (cell >= 4) board[cell - 4] = owner;
      advances.push({ action: { type: 'double', cell }, board, across: state.across[me] + (cell < 4 ? 1 : 0) });
    }
    if (BUG !== 'double-advance-when-stuck' || !out.some((f) => f.action.type === 'play')) out.push(...advances);
  }
  return out;
}

function legalActions(state) {
  return legal(state).map((found) => found.action);
}

// -- transitions (R3, R9, R10) -------------------------------------------------------

function nextTurn(state, board, across) {
  const config = { players: state.players, counters: state.counters };
  const step = BUG === 'anticlockwise' ? state.players - 1 : 1;
  return makeState(config, (state.player + step) % state.players, 'roll', null, board, across);
}

// Return { state, event } after the action, or throw RuleError naming the rule.
function apply(state, action) {
  if (state.phase === 'over') throw new RuleError('the game is over', 'R10.2');
  const config = { players: state.players, counters: state.counters };
  if (action.type === 'roll') {
    if (state.phase !== 'roll') throw new RuleError('the dice on the table must be played first', 'R3.3');
    const dice = action.dice[0] <= action.dice[1] ? [...action.dice] : [action.dice[1], action.dice[0]];
    const choosing = { ...state, phase: 'choose', dice };
    if (legal(choosing).length) {
      const made = makeState(config, state.player, 'choose', dice, state.board, state.across);
      if (BUG === 'thrown-order') return { state: Object.freeze({ ...made, dice: [...action.dice] }), event: 'rolled' };
      return { state: made, event: 'rolled' };
    }
    if (BUG === 'forfeit-keeps-turn') {
      return { state: makeState(config, state.player, 'roll', null, state.board, state.across), event: 'forfeited' };
    }
    return { state: nextTurn(state, state.board, state.across), event: 'forfeited' };
  }
  if (state.phase === 'roll') throw new RuleError('a turn starts with a roll', 'R3.2');
  const text = actionText(action);
  const found = legal(state).find((f) => actionText(f.action) === text);
  if (!found) {
    const [rule, reason] = refusal(state, action);
    throw new RuleError(`${text} is refused: ${reason}`, rule);
  }
  const across = state.across.slice();
  across[state.player] = found.across;
  if (found.across === state.counters) {
    return { state: makeState(config, state.player, 'over', null, found.board, across), event: 'won' };
  }
  if (BUG === 'last-on-board-wins' && found.across > state.across[state.player]
      && !found.board.includes(state.player)) {
    const over = { ...state, phase: 'over', dice: null, board: found.board, across };
    return { state: Object.freeze(over), event: 'won' };
  }
  const again = (BUG === 'sideways-keeps-turn' && action.type === 'sideways')
    || (BUG === 'double-rolls-again' && state.dice[0] === state.dice[1]);
  if (again) return { state: makeState(config, state.player, 'roll', null, found.board, across), event: 'played' };
  return { state: nextTurn(state, found.board, across), event: 'played' };
}

// R4.6: the rule that refuses an action that is not legal.
function refusal(state, action) {
  const me = state.player;
  const [a, b] = state.dice;
  if (action.type === 'sideways') {
    if (a + b !== 7) return ['R7.1', 'a sideways step needs a roll totalling 7'];
    if (state.board[action.from] !== me) return ['R7.1', `${cellName(action.from)} holds no counter of player ${me}`];
    return ['R7.1', `${cellName(action.to)} is not empty`];
  }
  if (action.type === 'double') {
    if (a !== b) return ['R8.3', 'a double advance needs a double'];
    if (state.board[action.cell] !== me) return ['R8.3', `${cellName(action.cell)} holds no counter of player ${me}`];
    return ['R6.4', 'the cell above is occupied'];
  }
  // A play: the dice it needs, the counters it names, its steps as written, the dice left.
  const needed = [];
  for (const m of action.moves) {
    const row = rowOf(m.cell);
    if (m.enter) for (let i = 0; i <= m.rows; i += 1) needed.push(row);
    else for (let i = 0; i < m.rows; i += 1) needed.push(row - i);
  }
  const left = [a, b];
  for (const die of needed) {
    const i = left.indexOf(die);
    if (i < 0) return ['R4.2', `the play needs ${needed.join(' and ')}, and the roll is ${a} and ${b}`];
    left.splice(i, 1);
  }
  for (const m of action.moves) {
    if (!m.enter && state.board[m.cell] !== me) return ['R6.1', `${cellName(m.cell)} holds no counter of player ${me}`];
  }
  const board = state.board.slice();
  let inHand = hand(state, me);
  for (const m of action.moves) {
    let cell = m.cell;
    if (m.enter) {
      if (inHand === 0) return ['R5.1', `player ${me} has no counter in hand`];
      if (board[cell] !== null) return ['R5.2', `${cellName(cell)} holds a counter`];
      board[cell] = me;
      inHand -= 1;
    }
    for (let step = 0; step < (m.enter ? m.rows : m.rows); step += 1) {
      if (cell >= 4 && board[cell - 4] !== null) return ['R6.4', `the cell above ${cellName(cell)} holds a counter`];
      board[cell] = null;
      if (cell >= 4) board[cell - 4] = me;
      cell -= 4;
    }
  }
  return ['R4.5', 'it leaves a die unused that can be used'];
}

// Chance's outcomes: in a state about to roll, the 21 sorted rolls, a double 1/36 and
// any other 1/18 (R4.1); none elsewhere.
function chanceOutcomes(state) {
  if (state.phase !== 'roll') return [];
  const out = [];
  for (let x = 1; x <= 6; x += 1) {
    for (let y = x; y <= 6; y += 1) out.push({ action: `r${x}${y}`, p: x === y ? [1, 36] : [1, 18] });
  }
  return out;
}

// Whole-roll counts of a state about to roll: legal actions over the 36 ordered rolls.
function perft(state) {
  if (state.phase !== 'roll') throw new RuleError('whole-roll counts need a state about to roll', 'R3.2');
  let choices = 0;
  let forfeits = 0;
  for (let x = 1; x <= 6; x += 1) {
    for (let y = 1; y <= 6; y += 1) {
      const n = legal({ ...state, phase: 'choose', dice: x <= y ? [x, y] : [y, x] }).length;
      choices += n;
      if (n === 0) forfeits += 1;
    }
  }
  return { choices, forfeits };
}

export {
  LETTERS, DEFAULT_COUNTERS, RuleError, isInt, rowOf, cellName, makeConfig, hand, winnerOf,
  newGame, makeState, legal, legalActions, actionText, moveText, moveKey, apply, perft,
  chanceOutcomes, setBug,
};
