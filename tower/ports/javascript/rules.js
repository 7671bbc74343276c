// The rules of Off to the Tower, written from tower/spec/: boards (R2, N4),
// configurations (R12), states and their invariants (R13), legal moves
// (R5.5) and the transitions (R4, R5 to R11).
//
// A board is read from its JSON value; a state is a plain object
//   { config, player, phase: 'throw' | 'choose' | 'over', dice: [a, b] | null,
//     stones: [[place, ...], ...], tower: player | null }
// where a player's places are the stones not in the tower: 0 at the start, a
// step of the route, or the route's length for the goal. States are never
// changed in place.

import { Real, isInt } from './json.js';

class RuleError extends Error {
  // rule: the spec rule broken; at: the index in a text (N1.6), when there is one.
  constructor(message, rule, at) {
    super(message);
    this.rule = rule;
    if (at !== undefined) this.at = at;
  }
}

// A seeded bug (bugs.json beside this file): one rule read wrongly, chosen by the
// port's --bug option for the conformance study. With none, the rules are the spec's.
let BUG = null;
const bug = (name) => BUG === name;
function seedBug(name) {
  BUG = name;
}

const FORMAT = 'tower-board/1';
const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const TEXT = /^[ -~]{1,200}$/;
const FIELD_NUMBER = /^[1-9][0-9]{0,2}$/;
const LETTER = /^[A-Z]$/;

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Real);
const quote = (v) => {
  if (v instanceof Real) return String(v.value);
  try {
    const text = JSON.stringify(v);
    return text === undefined ? typeof v : text.slice(0, 60);
  } catch (e) {
    return typeof v;
  }
};

// -- boards: the file (N4) and the rules of a playable board (R2) ------------------

function point(value, what, rule) {
  if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => isInt(v) && v >= 0 && v <= 100000)) {
    throw new RuleError(`${what} is two integers from 0 to 100000, not ${quote(value)}`, rule);
  }
  return [value[0], value[1]];
}

function text(value, what) {
  if (typeof value !== 'string' || !TEXT.test(value)) {
    throw new RuleError(`${what} is 1 to 200 printable ASCII characters`, 'N4.2');
  }
  return value;
}

// The board of a JSON value, checked in the order of N4.6; a RuleError names the first fault.
function readBoard(data) {
  if (!isObject(data)) throw new RuleError('a board is a JSON object', 'N4.1');
  const known = ['format', 'name', 'title', 'note', 'start', 'fields', 'track', 'colours'];
  for (const key of Object.keys(data)) {
    if (!known.includes(key)) throw new RuleError(`unknown key ${quote(key)} in a board`, 'N4.1');
  }
  for (const key of ['format', 'name', 'title', 'fields', 'track', 'colours']) {
    if (!(key in data)) throw new RuleError(`a board needs the key ${quote(key)}`, 'N4.1');
  }
  if (data.format !== FORMAT) throw new RuleError(`the format is ${FORMAT}`, 'N4.1');
  if (typeof data.name !== 'string' || !NAME.test(data.name)) {
    throw new RuleError('a board name is a lower-case letter, then letters, digits and hyphens', 'N4.2');
  }
  const board = { name: data.name, title: text(data.title, 'the title') };
  if ('note' in data) board.note = text(data.note, 'the note');
  if ('start' in data) board.start = point(data.start, 'the start', 'N4.1');

  if (!isObject(data.fields)) throw new RuleError('the fields are an object', 'N4.3');
  const fields = new Map();
  for (const [key, item] of Object.entries(data.fields)) {
    if (!FIELD_NUMBER.test(key)) throw new RuleError(`${quote(key)} is not a field number`, 'N4.3');
    if (!isObject(item)) throw new RuleError(`field ${key} is an object`, 'N4.3');
    for (const k of Object.keys(item)) {
      if (!['colour', 'star', 'at'].includes(k)) throw new RuleError(`unknown key ${quote(k)} in field ${key}`, 'N4.3');
    }
    const colour = 'colour' in item ? item.colour : null;
    if (colour !== null && (typeof colour !== 'string' || !LETTER.test(colour))) {
      throw new RuleError(`the colour of field ${key} is a capital letter or null`, 'N4.3');
    }
    const star = 'star' in item ? item.star : false;
    if (typeof star !== 'boolean') throw new RuleError(`the star of field ${key} is true or false`, 'N4.3');
    const at = 'at' in item ? point(item.at, `the point of field ${key}`, 'N4.3') : null;
    fields.set(Number(key), { number: Number(key), colour, star, at });
  }
  const drawn = [...fields.values()].filter((f) => f.at !== null).length;
  if (drawn > 0 && drawn < fields.size) throw new RuleError('either every field has a point or none', 'N4.3');
  board.fields = new Map([...fields.entries()].sort((a, b) => a[0] - b[0]));

  const numbers = (value, what, rule) => {
    if (!Array.isArray(value)) throw new RuleError(`${what} is a list of field numbers`, rule);
    for (const n of value) {
      if (!isInt(n) || !board.fields.has(n)) throw new RuleError(`${what} names ${quote(n)}, not a field`, rule);
    }
    return [...value];
  };
  board.track = numbers(data.track, 'the track', 'N4.4');

  if (!isObject(data.colours)) throw new RuleError('the colours are an object', 'N4.5');
  board.colours = [];
  const colourKeys = ['name', 'paint', 'way_in', 'entry', 'gate', 'goal'];
  for (const [letter, item] of Object.entries(data.colours)) {
    if (!LETTER.test(letter)) throw new RuleError(`${quote(letter)} is not a colour letter`, 'N4.5');
    if (!isObject(item)) throw new RuleError(`colour ${letter} is an object`, 'N4.5');
    for (const k of Object.keys(item)) {
      if (!colourKeys.includes(k)) throw new RuleError(`unknown key ${quote(k)} in colour ${letter}`, 'N4.5');
    }
    for (const k of colourKeys) {
      if (!(k in item)) throw new RuleError(`colour ${letter} needs ${quote(k)}`, 'N4.5');
    }
    if (typeof item.name !== 'string' || !/^[a-z ]{1,20}$/.test(item.name)) {
      throw new RuleError(`the name of colour ${letter} is lower-case words`, 'N4.5');
    }
    if (typeof item.paint !== 'string' || !/^#[0-9a-f]{6}$/.test(item.paint)) {
      throw new RuleError(`the paint of colour ${letter} is #rrggbb`, 'N4.5');
    }
    const wayIn = numbers(item.way_in, `the way in of colour ${letter}`, 'N4.5');
    if (!isInt(item.entry) || !isInt(item.gate)) throw new RuleError(`entry and gate of ${letter} are positions`, 'N4.5');
    if (!isInt(item.goal) || !board.fields.has(item.goal)) throw new RuleError(`the goal of ${letter} is not a field`, 'N4.5');
    board.colours.push({ letter, name: item.name, paint: item.paint, wayIn, entry: item.entry, gate: item.gate, goal: item.goal });
  }
  checkPlayable(board);
  board.routes = new Map(board.colours.map((c) => [c.letter, route(board, c)]));
  board.text = JSON.stringify(boardJson(board));
  return board;
}

function route(board, c) {
  return [0, ...c.wayIn, ...board.track.slice(c.entry - 1, c.gate), c.goal];
}

// R2.3, R2.1, R2.2, then each colour's R2.4, R2.5 and R2.6 (N4.6).
function checkPlayable(board) {
  const n = board.colours.length;
  if (n < 2 || n > 4) throw new RuleError(`a board has two to four colours, not ${n}`, 'R2.3');
  const letters = new Set(board.colours.map((c) => c.letter));
  for (const f of board.fields.values()) {
    if (f.colour !== null && !letters.has(f.colour)) throw new RuleError(`field ${f.number}'s colour is not the board's`, 'R2.1');
    if (f.star && f.colour !== null) throw new RuleError(`field ${f.number} has a star and a colour`, 'R2.1');
  }
  const times = new Map();
  for (const n2 of board.track) times.set(n2, (times.get(n2) || 0) + 1);
  if ([...times.values()].some((k) => k > 2)) throw new RuleError('a field appears three times on the track', 'R2.2');
  const twice = [...times.entries()].filter(([, k]) => k === 2).map(([f]) => f);
  if (twice.length !== 1) throw new RuleError('the track passes exactly one field twice, its crossing', 'R2.2');
  const crossing = twice[0];
  const first = board.track.indexOf(crossing);
  const second = board.track.indexOf(crossing, first + 1);
  if (second - first - 1 < 2) throw new RuleError('the loop holds fewer than two fields', 'R2.2');
  if (!board.fields.get(crossing).star) throw new RuleError('the crossing bears no star', 'R2.2');
  board.crossing = crossing;
  const onTrack = new Set(board.track);
  const goals = board.colours.map((c) => c.goal);
  for (const c of board.colours) {
    if (c.wayIn.some((f) => onTrack.has(f) || goals.includes(f))) throw new RuleError(`a way-in field of ${c.name} is on the track or a goal`, 'R2.4');
    if (c.entry < 1 || c.entry > board.track.length) throw new RuleError(`${c.name}'s entry is off the track`, 'R2.4');
    if (c.gate < c.entry || c.gate > board.track.length) throw new RuleError(`${c.name}'s gate is before its entry or off the track`, 'R2.5');
    if (board.fields.get(c.goal).colour !== c.letter) throw new RuleError(`${c.name}'s goal is not ${c.name}`, 'R2.5');
    if (onTrack.has(c.goal) || board.colours.some((o) => o.wayIn.includes(c.goal))) throw new RuleError(`${c.name}'s goal lies on a route`, 'R2.5');
    if (goals.filter((g) => g === c.goal).length > 1) throw new RuleError(`${c.name}'s goal is another colour's too`, 'R2.5');
    const walk = route(board, c).slice(1, -1);
    const seen = new Set();
    for (const f of walk) {
      if (seen.has(f) && f !== crossing) throw new RuleError(`${c.name}'s route visits field ${f} twice`, 'R2.6');
      seen.add(f);
    }
    if (walk.length < 6 || !board.fields.get(walk[5]).star) throw new RuleError(`step 6 of ${c.name}'s route bears no star`, 'R2.6');
  }
}

// The JSON value of a board, keys in canonical order (N4.7).
function boardJson(board) {
  const out = { format: FORMAT, name: board.name, title: board.title };
  if (board.note !== undefined) out.note = board.note;
  if (board.start !== undefined) out.start = board.start;
  out.fields = {};
  for (const f of board.fields.values()) {
    const item = {};
    if (f.colour !== null) item.colour = f.colour;
    if (f.star) item.star = true;
    if (f.at !== null) item.at = f.at;
    out.fields[f.number] = item;
  }
  out.track = board.track;
  out.colours = {};
  for (const c of board.colours) {
    out.colours[c.letter] = { name: c.name, paint: c.paint, way_in: c.wayIn, entry: c.entry, gate: c.gate, goal: c.goal };
  }
  return out;
}

// The shipped boards, by name and by canonical text; the port registers them.
const SHIPPED = new Map();
const SHIPPED_TEXT = new Map();

function registerBoard(name, data) {
  const board = readBoard(data);
  SHIPPED.set(name, board);
  SHIPPED_TEXT.set(board.text, name);
}

function shippedBoard(name) {
  if (!SHIPPED.has(name)) throw new RuleError(`there is no shipped board ${quote(name)}`, 'R12.3');
  return SHIPPED.get(name);
}

const shippedName = (board) => SHIPPED_TEXT.get(board.text) ?? null;

// -- configurations (R12) and the opening (R3) --------------------------------------

function makeConfig(board, players, colours) {
  if (!isInt(players) || players < 2 || players > 4) throw new RuleError(`a game has 2 to 4 players, not ${quote(players)}`, 'R12.1');
  if (board.colours.length < players) throw new RuleError(`the board has too few colours for ${players} players`, 'R12.3');
  const letters = board.colours.map((c) => c.letter);
  const chosen = colours ?? letters.slice(0, players);
  if (!Array.isArray(chosen) || chosen.length !== players) throw new RuleError('one colour for each player', 'R12.2');
  const seen = new Set();
  for (const letter of chosen) {
    if (!letters.includes(letter)) throw new RuleError(`${quote(letter)} is not a colour of the board`, 'R12.2');
    if (seen.has(letter)) throw new RuleError(`colour ${letter} is played twice`, 'R12.2');
    seen.add(letter);
  }
  const routes = chosen.map((letter) => board.routes.get(letter));
  return {
    board,
    players,
    colours: [...chosen],
    stones: players === 4 ? 1 : 2,
    routes,
    lengths: routes.map((r) => r.length - 1),
    // Steps whose field has the player's colour: the goal is one of them (R6.1, R6.6).
    again: routes.map((r, p) => new Set(r.map((f, s) => s).filter((s) => s > 0 && board.fields.get(r[s]).colour === chosen[p]))),
  };
}

function newGame(config, first = 0) {
  if (!isInt(first) || first < 0 || first >= config.players) throw new RuleError('the first player is not a player', 'R3.2');
  return { config, player: first, phase: 'throw', dice: null, stones: config.colours.map(() => new Array(config.stones).fill(0)), tower: null };
}

// -- who stands where, and the legal moves (R5.5) ------------------------------------

function fieldOf(config, p, place) {
  return place > 0 && place < config.lengths[p] ? config.routes[p][place] : null;
}

// The legal moves {step, points} of player `me` with these stones and dice, in order.
function movesFor(config, me, stones, dice) {
  const holder = new Map();
  stones.forEach((places, p) => places.forEach((x) => {
    const f = fieldOf(config, p, x);
    if (f !== null) holder.set(f, p);
  }));
  const crossing = config.board.crossing;
  const closed = holder.has(crossing) && holder.get(crossing) !== me && !bug('no-obstacle');
  const routeOf = config.routes[me];
  const goal = config.lengths[me];
  const found = [];
  for (const step of [...new Set(stones[me])].sort((a, b) => a - b)) {
    if (step === goal) continue;
    const numbers = bug('double-listed-twice') ? [...dice].sort((a, b) => a - b) : [...new Set(dice)].sort((a, b) => a - b);
    if (bug('dice-added')) numbers.push(dice[0] + dice[1]);
    for (const points of numbers) {
      const to = step + points;
      if (to > goal && !bug('goal-overshoot')) continue; // R10.2
      if (to < goal && !bug('twin-allowed')) {
        const own = holder.get(routeOf[to]) === me && routeOf[to] !== fieldOf(config, me, step);
        if (own) continue; // R5.4
      }
      let passes = false;
      for (let k = step + 1; k < to; k += 1) if (routeOf[k] === crossing) passes = true;
      if (closed && passes) continue; // R9.1
      found.push({ step, points });
    }
  }
  if (bug('points-first')) found.sort((a, b) => a.points - b.points || a.step - b.step);
  if (bug('priority-per-die')) {
    const fromStart = new Set(found.filter((m) => m.step === 0).map((m) => m.points));
    return found.filter((m) => m.step === 0 || !fromStart.has(m.points));
  }
  if (found.some((m) => m.step === 0)) return found.filter((m) => m.step === 0); // R5.3
  return found;
}

function legalMoves(state) {
  return state.phase === 'choose' ? movesFor(state.config, state.player, state.stones, state.dice) : [];
}

// -- the invariants (R13), in their order; a violation names its rule and its part --

function violation(config, player, phase, dice, stones, tower) {
  const names = config.colours.map((l) => config.board.colours.find((c) => c.letter === l).name);
  for (let p = 0; p < config.players; p += 1) {
    if (stones[p].length + (tower === p ? 1 : 0) !== config.stones) return { rule: 'R13.1', message: `${names[p]} has the wrong number of stones`, part: 'group', player: p };
  }
  for (let p = 0; p < config.players; p += 1) {
    for (let i = 0; i < stones[p].length; i += 1) {
      if (stones[p][i] > config.lengths[p]) return { rule: 'R13.2', message: 'a stone is off its route', part: 'place', player: p, nth: i };
    }
  }
  if (tower !== null && !(tower >= 0 && tower < config.players)) return { rule: 'R13.3', message: 'the tower holds no player\'s stone', part: 'tower' };
  const seen = new Map();
  for (let p = 0; p < config.players; p += 1) {
    for (let i = 0; i < stones[p].length; i += 1) {
      const f = fieldOf(config, p, stones[p][i]);
      if (f === null) continue;
      if (seen.has(f)) return { rule: seen.get(f) === p ? 'R5.4' : 'R7.4', message: `two stones on field ${f}`, part: 'place', player: p, nth: i };
      seen.set(f, p);
    }
  }
  if ((phase === 'choose') !== (dice !== null)) return { rule: 'R13.5', message: 'dice are on the table exactly while a move is chosen', part: 'turn' };
  const home = [];
  for (let p = 0; p < config.players; p += 1) {
    if (tower !== p && stones[p].length === config.stones && stones[p].every((x) => x === config.lengths[p])) home.push(p);
  }
  if (home.length > 1) return { rule: 'R11.3', message: 'two players have every stone home', part: 'turn' };
  if (phase === 'over') {
    if (home.length === 0) return { rule: 'R11.1', message: 'nobody has won', part: 'turn' };
    if (home[0] !== player) return { rule: 'R13.5', message: 'a finished game\'s player is its winner', part: 'turn' };
  } else if (home.length) {
    return { rule: 'R11.1', message: 'a player has every stone home: the game is over', part: 'turn' };
  }
  if (dice !== null) {
    if (tower === player && dice.includes(6)) return { rule: 'R8.3', message: 'a six frees the thrower\'s stone first', part: 'turn' };
    if (movesFor(config, player, stones, dice).length === 0) return { rule: 'R4.4', message: 'these dice cannot be used', part: 'turn' };
  }
  return null;
}

// -- transitions ----------------------------------------------------------------

const next = (state, again) => {
  if (again) return state.player;
  const players = state.config.players;
  return bug('turn-backwards') ? (state.player + players - 1) % players : (state.player + 1) % players;
};
const placed = (stones, p, places) => stones.map((old, q) => (q === p ? [...places].sort((a, b) => a - b) : old));

function throwDice(state, dice) {
  if (state.phase === 'choose') throw new RuleError('use the dice on the table first', 'R3.4');
  if (state.phase === 'over') throw new RuleError('the game is over', 'R11.2');
  const sorted = bug('unsorted-dice') ? [...dice] : [Math.min(...dice), Math.max(...dice)];
  let { stones, tower } = state;
  const freed = bug('any-six-frees') ? tower !== null : tower === state.player;
  if (freed && sorted.includes(6)) { // R8.3
    stones = placed(stones, tower, [0, ...stones[tower]]);
    tower = null;
  }
  if (movesFor(state.config, state.player, stones, sorted).length === 0) { // R4.4
    return { state: { ...state, player: next(state, bug('forfeit-keeps-turn')), stones, tower }, event: 'forfeited' };
  }
  return { state: { ...state, phase: 'choose', dice: sorted, stones, tower }, event: 'thrown' };
}

function whyNot(state, move) {
  if (state.phase === 'throw') return ['R3.4', 'throw the dice first'];
  if (state.phase === 'over') return ['R11.2', 'the game is over'];
  const { config, player: me } = state;
  const goal = config.lengths[me];
  if (!state.stones[me].some((x) => x === move.step && x < goal)) return ['R5.2', 'no stone there can move'];
  if (!state.dice.includes(move.points)) return ['R4.2', 'no die shows those points'];
  const to = move.step + move.points;
  if (to > goal) return ['R10.2', 'the goal is reached only by an exact throw'];
  const r = config.routes[me];
  if (to < goal && state.stones[me].some((x) => x !== move.step && fieldOf(config, me, x) === r[to])) return ['R5.4', 'the player\'s own stone stands there'];
  const held = state.stones.some((places, q) => q !== me && places.some((x) => fieldOf(config, q, x) === config.board.crossing));
  for (let k = move.step + 1; k < to; k += 1) if (held && r[k] === config.board.crossing) return ['R9.1', 'the obstacle closes the way'];
  return ['R5.3', 'a stone at the start moves first'];
}

function moveStone(state, move) {
  const legal = legalMoves(state);
  if (!legal.some((m) => m.step === move.step && m.points === move.points)) {
    const [rule, reason] = whyNot(state, move);
    throw new RuleError(reason, rule);
  }
  const { config, player: me } = state;
  const goal = config.lengths[me];
  let to = Math.min(move.step + move.points, goal);
  if (bug('short-step')) to -= 1;
  const mine = [...state.stones[me]];
  mine.splice(mine.indexOf(move.step), 1, to);
  let stones = placed(state.stones, me, mine);
  let { tower } = state;
  let captured = false;
  const capture = (field, landing) => {
    for (let q = 0; q < config.players; q += 1) {
      if (q === me) continue;
      const on = (x) => fieldOf(config, q, x) !== null && (bug('steps-compared') && landing ? x === to : fieldOf(config, q, x) === field);
      const hit = stones[q].findIndex(on);
      if (hit < 0) continue;
      captured = true;
      stones = placed(stones, q, stones[q].filter((_, i) => i !== hit)); // R7.1
      if (bug('captured-to-start') || (bug('full-tower-refuses') && tower !== null)) {
        stones = placed(stones, q, [0, ...stones[q]]);
        return;
      }
      if (tower !== null) stones = placed(stones, tower, [0, ...stones[tower]]); // R8.2
      tower = q;
      return;
    }
  };
  if (bug('jump-captures')) for (let k = move.step + 1; k < Math.min(to, goal); k += 1) capture(config.routes[me][k], false);
  if (to === goal) {
    const home = tower !== me && stones[me].every((x) => x === to);
    if (home && !bug('winner-throws-again')) return { state: { ...state, phase: 'over', dice: null, stones, tower }, event: 'won' };
  } else if (to > 0) {
    capture(config.routes[me][to], true);
  }
  let again = config.again[me].has(to);
  if (bug('goal-no-again') && to === goal) again = false;
  if (bug('star-again') && to > 0 && to < goal && config.board.fields.get(config.routes[me][to]).star) again = true;
  if (bug('capture-ends-turn') && captured) again = false;
  return { state: { ...state, player: next(state, again), phase: 'throw', dice: null, stones, tower }, event: again ? 'again' : 'moved' };
}

function apply(state, action) {
  return action.type === 'throw' ? throwDice(state, action.dice) : moveStone(state, action);
}

// Whole-throw counts of a state about to throw: moves over the 36 ordered throws, and forfeits.
function perft(state) {
  if (state.phase !== 'throw') throw new RuleError('whole-throw counts need a state about to throw', 'R3.4');
  let choices = 0;
  let forfeits = 0;
  for (let a = 1; a <= 6; a += 1) {
    for (let b = 1; b <= 6; b += 1) {
      const { state: after, event } = throwDice(state, [a, b]);
      if (event === 'forfeited') forfeits += 1;
      else choices += legalMoves(after).length;
    }
  }
  return { choices, forfeits };
}

// Chance's outcomes where the dice are to be thrown (R4.1): the 21 sorted throws,
// a double with chance 1/36 and any other with 2/36 = 1/18; none in another phase.
function chanceOutcomes(state) {
  if (state.phase !== 'throw') return [];
  const found = [];
  for (let a = 1; a <= 6; a += 1) {
    for (let b = a; b <= 6; b += 1) found.push({ dice: [a, b], p: a === b ? [1, 36] : [1, 18] });
  }
  return found;
}

export {
  RuleError, readBoard, boardJson, registerBoard, shippedBoard, shippedName, makeConfig, newGame,
  legalMoves, violation, apply, perft, chanceOutcomes, fieldOf, quote, isObject, seedBug,
};
