// The notation of states and actions (N1, N2) and their JSON forms (N3), from tower/spec/notation.md.
//
// parseState reads the whole text first, then the configuration (R12), then
// the invariants (R13), and a RuleError points at the character N1.6 names.

import { Real, isInt, readJson } from './json.js';
import {
  RuleError, readBoard, boardJson, shippedBoard, shippedName, makeConfig, violation, quote, isObject,
} from './rules.js';

const PHASE_LETTER = { throw: 't', choose: 'c', over: 'x' };
const DIE = /[1-6]/;
const DIGIT = /[0-9]/;
const NAME = /^[a-z][a-z0-9-]{0,31}/;

function boardText(board) {
  const name = shippedName(board);
  return name === null ? board.text : `@${name}`;
}

function formatState(state) {
  const { config } = state;
  const groups = state.stones.map((places, p) => {
    const goal = config.lengths[p];
    const text = places.map((x) => (x === goal ? 'g' : String(x))).join(',');
    return config.colours[p] + (text || '-');
  });
  const tower = state.tower === null ? '-' : config.colours[state.tower];
  const dice = state.dice === null ? '' : state.dice.join('');
  return `${groups.join('/')} ${tower} ${state.player}${PHASE_LETTER[state.phase]}${dice} ${boardText(config.board)}`;
}

function formatAction(action) {
  return action.type === 'throw' ? `t${action.dice.join('')}` : `${action.step}+${action.points}`;
}

const fail = (message, rule, at) => new RuleError(message, rule, at);

// A number at `i`: 0, or 1 to 999 without a leading zero; returns its end.
function numberEnd(text, i, rule) {
  let end = i;
  while (end < text.length && DIGIT.test(text[end])) end += 1;
  if (end - i > 1 && text[i] === '0') throw fail('no leading zero', rule, i);
  if (end - i > 3) throw fail('at most three digits', rule, i);
  return end;
}

function parseAction(text) {
  if (typeof text !== 'string') throw fail('an action is text', 'N2.1', 0);
  if (text[0] === 't') {
    for (const i of [1, 2]) if (!(i < text.length && DIE.test(text[i]))) throw fail('a throw is t and two dice', 'N2.2', i);
    if (text.length > 3) throw fail('a throw has two dice', 'N2.2', 3);
    return { type: 'throw', dice: [Number(text[1]), Number(text[2])] };
  }
  if (text.length && DIGIT.test(text[0])) {
    const i = numberEnd(text, 0, 'N2.3');
    if (text[i] !== '+') throw fail("a move is a step, '+' and points", 'N2.3', i);
    if (!(i + 1 < text.length && DIE.test(text[i + 1]))) throw fail('points are 1 to 6', 'N2.3', i + 1);
    if (text.length > i + 2) throw fail('nothing follows a move', 'N2.1', i + 2);
    return { type: 'move', step: Number(text.slice(0, i)), points: Number(text[i + 1]) };
  }
  throw fail('an action is a throw or a move', 'N2.1', 0);
}

function readGroups(text) {
  const groups = [];
  let i = 0;
  for (;;) {
    if (!(i < text.length && /[A-Z]/.test(text[i]))) throw fail('a group starts with a colour letter', 'N1.2', i);
    const group = { at: i, letter: text[i], places: [] };
    i += 1;
    if (text[i] === '-') {
      i += 1;
    } else {
      let last = -1;
      for (;;) {
        const start = i;
        let key;
        if (text[i] === 'g') {
          i += 1;
          key = Infinity;
        } else if (i < text.length && DIGIT.test(text[i])) {
          i = numberEnd(text, i, 'N1.2');
          key = Number(text.slice(start, i));
        } else {
          throw fail('a place is 0, a step or g', 'N1.2', i);
        }
        if (key < last) throw fail('places are in order', 'N1.2', start);
        last = key;
        group.places.push({ at: start, word: text.slice(start, i) });
        if (text[i] !== ',') break;
        i += 1;
      }
    }
    groups.push(group);
    if (text[i] === '/') {
      i += 1;
      continue;
    }
    if (i < text.length && text[i] !== ' ') throw fail(`unexpected ${quote(text[i])} in a group`, 'N1.2', i);
    return { groups, end: i };
  }
}

function separator(text, i) {
  if (text[i] !== ' ') throw fail('fields are separated by one space', 'N1.1', i);
  if (i + 1 >= text.length || text[i + 1] === ' ') throw fail('a field is missing', 'N1.1', i + 1);
  return i + 1;
}

function readBoardField(text, at) {
  const rest = text.slice(at);
  if (rest[0] === '@') {
    const name = rest.slice(1);
    const match = NAME.exec(name);
    const stop = match ? match[0].length : 0;
    if (!name || stop !== name.length) throw fail('a board name is lower-case letters, digits and hyphens', 'N1.5', at + 1 + stop);
    try {
      return shippedBoard(name);
    } catch (e) {
      if (e instanceof RuleError) throw fail(e.message, e.rule, at);
      throw e;
    }
  }
  if (rest[0] !== '{') throw fail('the board is @ and a name, or its JSON text', 'N1.5', at);
  let data;
  try {
    data = readJson(rest);
  } catch (e) {
    throw fail(`the embedded board is not I-JSON: ${e.message}`, 'N1.5', at);
  }
  let board;
  try {
    board = readBoard(data);
  } catch (e) {
    if (e instanceof RuleError) throw fail(e.message, e.rule, at);
    throw e;
  }
  if (board.text !== rest) throw fail('an embedded board is written in its canonical text', 'N1.5', at);
  const name = shippedName(board);
  if (name !== null) throw fail(`this is the shipped board ${name}: write @${name}`, 'N1.5', at);
  return board;
}

function parseState(text) {
  if (typeof text !== 'string') throw fail('a state is text', 'N1.1', 0);
  const { groups, end } = readGroups(text);
  let i = separator(text, end);
  const towerAt = i;
  let towerLetter = null;
  if (/[A-Z]/.test(text[i])) towerLetter = text[i];
  else if (text[i] !== '-') throw fail("the tower is '-' or a colour letter", 'N1.3', i);
  i = separator(text, i + 1);
  const turnAt = i;
  if (!DIGIT.test(text[i]) || Number(text[i]) >= groups.length) throw fail('the turn starts with a player number', 'N1.4', i);
  const player = Number(text[i]);
  let phase;
  let dice = null;
  const letter = text[i + 1];
  if (letter === 't') phase = 'throw';
  else if (letter === 'x') phase = 'over';
  else if (letter === 'c') phase = 'choose';
  else throw fail('the phase is t, c and two dice, or x', 'N1.4', i + 1);
  i += 2;
  if (phase === 'choose') {
    for (const k of [i, i + 1]) if (!(k < text.length && DIE.test(text[k]))) throw fail('c and two dice', 'N1.4', k);
    dice = [Number(text[i]), Number(text[i + 1])];
    if (dice[0] > dice[1]) throw fail('the dice are written in order', 'N1.4', i);
    i += 2;
  }
  if (text[i] !== ' ') throw fail('a space and the board follow the turn', 'N1.1', i);
  const boardAt = i + 1;
  const board = readBoardField(text, boardAt);
  if (groups.length < 2 || groups.length > 4) throw fail(`a game has 2 to 4 players, not ${groups.length}`, 'R12.1', 0);
  if (board.colours.length < groups.length) throw fail('the board has too few colours', 'R12.3', boardAt);
  const letters = board.colours.map((c) => c.letter);
  const seen = new Set();
  for (const g of groups) {
    if (!letters.includes(g.letter)) throw fail(`colour ${g.letter} is not the board's`, 'R12.2', g.at);
    if (seen.has(g.letter)) throw fail(`colour ${g.letter} is played twice`, 'R12.2', g.at);
    seen.add(g.letter);
  }
  const config = makeConfig(board, groups.length, groups.map((g) => g.letter));
  const stones = groups.map((g, p) => g.places.map(({ at, word }) => {
    if (word === 'g') return config.lengths[p];
    const step = Number(word);
    if (step >= config.lengths[p]) throw fail('a step past the route; the goal is g', 'R13.2', at);
    return step;
  }));
  let tower = null;
  if (towerLetter !== null) {
    tower = config.colours.indexOf(towerLetter);
    if (tower < 0) throw fail(`no player plays ${towerLetter}`, 'R13.3', towerAt);
  }
  const found = violation(config, player, phase, dice, stones, tower);
  if (found) {
    const at = { group: () => groups[found.player].at, place: () => groups[found.player].places[found.nth].at, tower: () => towerAt, turn: () => turnAt }[found.part]();
    throw fail(found.message, found.rule, at);
  }
  return { config, player, phase, dice, stones, tower };
}

// -- JSON forms (N3) --------------------------------------------------------------

function configToJson(config) {
  const name = shippedName(config.board);
  return { board: name === null ? boardJson(config.board) : name, players: config.players, colours: config.colours };
}

function configFromJson(data) {
  if (!isObject(data)) throw fail('a configuration is an object', 'N3.1');
  for (const key of Object.keys(data)) if (!['board', 'players', 'colours'].includes(key)) throw fail(`unknown field ${quote(key)}`, 'N3.1');
  const value = 'board' in data ? data.board : 'ours';
  let board;
  if (typeof value === 'string') board = shippedBoard(value);
  else if (isObject(value)) board = readBoard(value);
  else throw fail('the board is a name or an object', 'N3.1');
  const players = 'players' in data ? data.players : 2;
  if (!isInt(players)) throw fail('players is an integer', 'N3.1');
  const colours = 'colours' in data ? data.colours : null;
  if (colours !== null && (!Array.isArray(colours) || !colours.every((c) => typeof c === 'string'))) throw fail('colours are letters', 'N3.1');
  return makeConfig(board, players, colours);
}

function stateToJson(state) {
  const { config } = state;
  const winner = state.phase === 'over' ? state.player : null;
  return {
    config: configToJson(config),
    player: state.player,
    phase: state.phase,
    dice: state.dice,
    stones: state.stones.map((places, p) => ({
      start: places.filter((x) => x === 0).length,
      track: places.filter((x) => x > 0 && x < config.lengths[p]),
      goal: places.filter((x) => x === config.lengths[p]).length,
    })),
    tower: state.tower,
    winner,
  };
}

function stateFromJson(data) {
  if (!isObject(data)) throw fail('a state is an object', 'N3.2');
  const keys = ['config', 'player', 'phase', 'dice', 'stones', 'tower', 'winner'];
  for (const key of Object.keys(data)) if (!keys.includes(key)) throw fail(`unknown field ${quote(key)}`, 'N3.2');
  for (const key of ['config', 'player', 'phase', 'stones']) if (!(key in data)) throw fail(`a state needs ${key}`, 'N3.2');
  const config = configFromJson(data.config);
  if (!isInt(data.player)) throw fail('player is an integer', 'N3.2');
  if (!['throw', 'choose', 'over'].includes(data.phase)) throw fail('an unknown phase', 'N3.2');
  const dice = 'dice' in data ? data.dice : null;
  if (dice !== null && !(Array.isArray(dice) && dice.length === 2 && dice.every(isInt))) throw fail('dice are two integers', 'N3.2');
  const tower = 'tower' in data ? data.tower : null;
  if (tower !== null && !isInt(tower)) throw fail('tower is a player or null', 'N3.2');
  if (!Array.isArray(data.stones) || data.stones.length !== config.players) throw fail('one stones object per player', 'N3.2');
  const stones = data.stones.map((item, p) => {
    if (!isObject(item) || Object.keys(item).sort().join() !== 'goal,start,track') throw fail('stones are start, track and goal', 'N3.2');
    const { start, track, goal } = item;
    if (!(isInt(start) && start >= 0 && isInt(goal) && goal >= 0)) throw fail('start and goal are counts', 'N3.2');
    if (!Array.isArray(track) || !track.every((t) => isInt(t) && t >= 1)) throw fail('track is a list of steps', 'N3.2');
    if (start + track.length + goal > config.stones) throw fail('too many stones', 'R13.1');
    if (track.some((t) => t >= config.lengths[p])) throw fail('a step past the route', 'R13.2');
    return [...new Array(start).fill(0), ...[...track].sort((a, b) => a - b), ...new Array(goal).fill(config.lengths[p])];
  });
  const winner = 'winner' in data ? data.winner : null;
  if (winner !== null && !isInt(winner)) throw fail('winner is a player or null', 'N3.2');
  if (!(data.player >= 0 && data.player < config.players)) throw fail('player is not a player', 'R13.5');
  if (dice !== null && !dice.every((d) => d >= 1 && d <= 6)) throw fail('dice are 1 to 6', 'R13.5');
  const sorted = dice === null ? null : [Math.min(...dice), Math.max(...dice)];
  const found = violation(config, data.player, data.phase, sorted, stones, tower);
  if (found) throw fail(found.message, found.rule);
  const state = { config, player: data.player, phase: data.phase, dice: sorted, stones, tower };
  if ('winner' in data && winner !== (state.phase === 'over' ? state.player : null)) throw fail('winner does not match the stones', 'R11.1');
  return state;
}

function actionToJson(action) {
  return action.type === 'throw' ? { type: 'throw', dice: action.dice } : { type: 'move', from: action.step, points: action.points };
}

function actionFromJson(data) {
  if (!isObject(data)) throw fail('an action is an object', 'N3.3');
  const forms = { throw: ['type', 'dice'], move: ['type', 'from', 'points'] };
  const keys = typeof data.type === 'string' && Object.prototype.hasOwnProperty.call(forms, data.type) ? forms[data.type] : null;
  if (keys === null) throw fail("an action's type is throw or move", 'N3.3');
  for (const key of Object.keys(data)) if (!keys.includes(key)) throw fail(`unknown field ${quote(key)}`, 'N3.3');
  for (const key of keys) if (!(key in data)) throw fail(`a ${data.type} needs ${key}`, 'N3.3');
  if (data.type === 'throw') {
    if (!Array.isArray(data.dice) || !data.dice.every(isInt)) throw fail('dice are integers', 'N3.3');
    if (data.dice.length !== 2 || !data.dice.every((d) => d >= 1 && d <= 6)) throw fail('a throw is two dice from 1 to 6', 'N2.2');
    return { type: 'throw', dice: [...data.dice] };
  }
  if (!isInt(data.from) || !isInt(data.points)) throw fail('from and points are integers', 'N3.3');
  if (data.from < 0 || data.from > 999 || data.points < 1 || data.points > 6) throw fail('a step 0 to 999 and points 1 to 6', 'N2.3');
  return { type: 'move', step: data.from, points: data.points };
}

export {
  formatState, parseState, formatAction, parseAction, configToJson, configFromJson, stateToJson,
  stateFromJson, actionToJson, actionFromJson, Real,
};
