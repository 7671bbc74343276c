// The "Try it" page: a game of Can't Stop played in the browser by the JavaScript
// port (examples/ports/javascript). load.js calls cantstopTryIt with the port's
// four modules. The URL fragment holds the position: s= the start state, a= the
// actions played from it, x= an action to explain; "_" stands for a space.
(function () {
  'use strict';

  const OPENING = '-/- - 0r';

  window.cantstopTryIt = function start(port) {
    const R = port.rules;
    const N = port.notation;
    const B = port.board;
    const X = port.explain;
    const data = JSON.parse(document.getElementById('cs-tryit-data').textContent);
    const $ = (id) => document.getElementById(id);

    // The game: the start state, the actions played, the state after each, and
    // how far along the history the board is (undo moves back, redo forward).
    let game = null;
    let written = '';

    // ---- small helpers ---------------------------------------------------------------

    function el(tag, attrs, ...children) {
      const node = document.createElement(tag);
      for (const [key, value] of Object.entries(attrs || {})) {
        if (value === false || value === null || value === undefined) continue;
        if (key === 'text') node.textContent = value;
        else node.setAttribute(key, value === true ? '' : value);
      }
      for (const child of children) node.append(child);
      return node;
    }

    function ruleLink(id) {
      const href = data.rules[id];
      return href ? el('a', { href, class: 'cs-rule', text: id }) : document.createTextNode(id);
    }

    // "text (R1, R2)." with each rule id a link to its rule.
    function withRules(text, rules) {
      const out = [document.createTextNode(`${text.replace(/\.$/, '')} (`)];
      rules.forEach((id, index) => {
        if (index) out.push(document.createTextNode(', '));
        out.push(ruleLink(id));
      });
      out.push(document.createTextNode(').'));
      return out;
    }

    // An error of the port as text, with the rule it names. `text` is what the reader
    // gave, quoted; `at` counts characters in it from 0, and the message names the
    // character there.
    function problem(error, text, at = error && error.at) {
      if (!error || !error.rule) throw error;
      let where = '';
      if (at !== undefined && text !== undefined) {
        where = at < text.trimEnd().length ? ` at character ${at} ('${text[at]}')` : ' at the end';
      }
      const quoted = text === undefined ? '' : `'${text}': `;
      return [document.createTextNode(`${quoted}${error.message}${where} (rule `), ruleLink(error.rule),
        document.createTextNode(')')];
    }

    function say(id, ...nodes) {
      $(id).replaceChildren(...nodes);
    }

    function lines(explanation) {
      return explanation.statements.map((st) => el('p', { class: `cs-line cs-depth-${st.depth}` },
        ...withRules(st.text, st.rules)));
    }

    const current = () => game.states[game.cursor];
    const playerName = (p) => `Player ${p} (${B.PLAYER_NAMES[p % B.PLAYER_NAMES.length]})`;
    const isOpening = (s) => s.phase === 'roll' && !Object.keys(s.markers).length
      && s.squares.every((sq) => !Object.keys(sq).length);

    // ---- the game --------------------------------------------------------------------

    function newGame(start) {
      return { start, actions: [], states: [start], events: [], cursor: 0, ask: null };
    }

    // Play `action` at the current position; throws the port's error if illegal.
    function play(action) {
      const { state, event } = R.apply(current(), action);
      game.actions.length = game.cursor;
      game.events.length = game.cursor;
      game.states.length = game.cursor + 1;
      game.actions.push(action);
      game.events.push(event);
      game.states.push(state);
      game.cursor += 1;
      game.ask = null;
    }

    // Open a start state and actions from their notation; report what cannot be read.
    function open(stateText, actionTexts, ask, where) {
      let start;
      try {
        start = N.parseState(stateText);
      } catch (error) {
        say(where, `The state could not be read: `, ...problem(error, stateText));
        return false;
      }
      game = newGame(start);
      for (const [index, text] of actionTexts.entries()) {
        try {
          play(N.parseAction(text));
        } catch (error) {
          say(where, `Action ${index + 1}, `, ...problem(error, text), '; the board stops before it.');
          break;
        }
      }
      game.ask = ask || null;
      say('cs-message');
      render();
      return true;
    }

    // ---- the URL fragment ------------------------------------------------------------

    function fragment() {
      const parts = [`s=${N.formatState(game.start).replace(/ /g, '_')}`];
      const actions = game.actions.slice(0, game.cursor).map(N.formatAction);
      if (actions.length) parts.push(`a=${actions.join('_')}`);
      if (game.ask) parts.push(`x=${game.ask.replace(/ /g, '_')}`);
      return `#${parts.join('&')}`;
    }

    function readFragment(hash) {
      const found = {};
      for (const part of hash.replace(/^#/, '').split('&')) {
        const at = part.indexOf('=');
        if (at < 0) continue;
        let value = part.slice(at + 1);
        try {
          value = decodeURIComponent(value);
        } catch (error) {
          // A stray "%" is read as it stands; the notation then says what is wrong.
        }
        found[part.slice(0, at)] = value.replace(/_/g, ' ');
      }
      return found;
    }

    function openFragment() {
      written = location.hash;
      const found = readFragment(location.hash);
      say('cs-start-message');
      const actions = (found.a || '').split(' ').filter(Boolean);
      if (!open(found.s || OPENING, actions, found.x, 'cs-start-message')) open(OPENING, [], null, 'cs-message');
      if (found.s) showBoard();
    }

    // A link to a position lands on the board, with the answer to the action it
    // asks about right under it; a link that cannot be read shows why, above.
    function showBoard() {
      const target = $('cs-start-message').textContent ? $('cs-start-message') : $('cs-board-title');
      target.scrollIntoView({ block: 'start', behavior: 'instant' });
    }

    function writeFragment() {
      const hash = fragment();
      if (hash !== location.hash) {
        try {
          history.replaceState(null, '', hash);
        } catch (error) {
          location.hash = hash;
        }
      }
      written = location.hash;
      $('cs-link').value = location.href;
    }

    // ---- drawing ---------------------------------------------------------------------

    function render() {
      const s = current();
      const here = X.explain(s);
      say('cs-status', `Phase: ${s.phase}. ${here.statements[0].text}`);
      $('cs-board').innerHTML = B.stateSvg(s);
      $('cs-board').setAttribute('data-state', N.formatState(s));
      const rolling = s.phase === 'roll' || s.phase === 'decide';
      $('cs-roll').hidden = !rolling;
      $('cs-stop').parentElement.hidden = s.phase !== 'decide';
      const chance = here.statements.find((st) => st.kind.startsWith('chance.'));
      if (chance) {
        // At the start of a turn there is nothing to decide yet: the player must roll.
        const before = s.phase === 'decide' ? ['Before you decide: '] : [];
        say('cs-chance', ...before, ...withRules(chance.text, chance.rules));
      } else {
        say('cs-chance', s.phase === 'over' ? 'The game is over.' : '');
      }
      renderMoves(s);
      renderLast();
      say('cs-why', ...lines(here));
      renderHistory();
      renderAsk(s);
      writeFragment();
    }

    // The moves the dice offer: the legal ones to click, the others with the rule that refuses them.
    function renderMoves(s) {
      if (s.phase !== 'choose') {
        say('cs-moves');
        return;
      }
      const legal = R.legalMoves(s).map(R.moveText);
      const candidates = [];
      for (const [a, b] of R.pairings(s.dice)) {
        for (const move of a === b ? [[a, a], [a]] : [[a, b], [a], [b]]) {
          const text = R.moveText(move);
          if (!candidates.some((c) => c.text === text)) candidates.push({ text, move });
        }
      }
      candidates.sort((x, y) => R.moveText(x.move) === R.moveText(y.move) ? 0
        : x.move[0] - y.move[0] || x.move.length - y.move.length || (x.move[1] || 0) - (y.move[1] || 0));
      const buttons = legal.map((text) => el('button', {
        type: 'button', class: 'cs-move', 'data-move': text, text: `Play ${text}`,
      }));
      const refused = candidates.filter((c) => !legal.includes(c.text)).map((c) => {
        const verdict = X.explain(s, { type: 'move', columns: c.move }).statements[1];
        return el('li', { 'data-move': c.text }, ...withRules(verdict.text, verdict.rules));
      });
      const parts = [el('p', { class: 'cs-row cs-legal' }, el('span', { text: 'Legal moves: ' }), ...buttons)];
      if (!buttons.length) parts.push(el('p', { text: 'No move: the roll is a bust.' }));
      if (refused.length) {
        parts.push(el('p', { class: 'cs-refused-title', text: 'Not legal with these dice:' }),
          el('ul', { class: 'cs-refused' }, ...refused));
      }
      say('cs-moves', ...parts);
      for (const button of $('cs-moves').querySelectorAll('button.cs-move')) {
        button.addEventListener('click', () => act(N.parseAction(button.dataset.move)));
      }
    }

    // After a bust, a stop or a win the board has moved on: say what happened.
    function renderLast() {
      const index = game.cursor - 1;
      const event = index >= 0 ? game.events[index] : null;
      if (!['busted', 'stopped', 'won'].includes(event)) {
        say('cs-last');
        return;
      }
      const action = game.actions[index];
      const title = { busted: 'Bust', stopped: 'Stopped', won: 'Won' }[event];
      say('cs-last', el('h3', { text: `${title}: ${N.formatAction(action)}` }),
        el('div', { class: 'cs-explain' }, ...lines(X.explain(game.states[index], action))));
    }

    function renderHistory() {
      $('cs-undo').disabled = game.cursor === 0;
      $('cs-redo').disabled = game.cursor === game.actions.length;
      const opening = isOpening(game.start);
      $('cs-download').disabled = !opening;
      say('cs-download-note', opening ? ''
        : 'A game record starts at the opening of a game, and this one starts from a position: share the link instead.');
      say('cs-start-state', 'Start: ', el('code', { text: N.formatState(game.start) }));
      const items = game.actions.map((action, index) => {
        const event = game.events[index];
        const item = el('li', { class: index < game.cursor ? 'cs-played' : 'cs-undone' },
          el('code', { text: N.formatAction(action) }), event === 'rolled' || event === 'moved' ? '' : ` (${event})`);
        if (index >= game.cursor) item.append(' (undone)');
        return item;
      });
      say('cs-history', ...items);
    }

    function renderAsk(s) {
      if (!game.ask) {
        say('cs-answer');
        return;
      }
      $('cs-action').value = game.ask;
      try {
        say('cs-answer', ...lines(X.explain(s, N.parseAction(game.ask))));
      } catch (error) {
        say('cs-answer', el('p', { class: 'cs-tryit-error' }, ...problem(error, game.ask)));
      }
    }

    // ---- acting ----------------------------------------------------------------------

    // Play `action`; an illegal one is explained and leaves the board as it is.
    function act(action) {
      const s = current();
      const found = X.explain(s, action);
      if (!found.legal) {
        const verdict = found.statements[1];
        say('cs-message', ...withRules(verdict.text, verdict.rules));
        return false;
      }
      play(action);
      say('cs-message');
      render();
      focusNext();
      return true;
    }

    // Keyboard users go on where play goes on: a legal move, the dice, or a new game.
    function focusNext() {
      const s = current();
      if (s.phase === 'choose') {
        const first = $('cs-moves').querySelector('button.cs-move');
        if (first) first.focus();
      } else if (s.phase === 'over') {
        $('cs-new-game').querySelector('button').focus();
      } else {
        $('cs-dice').focus();
      }
    }

    // Roll the dice typed: an "r" before them, and spaces, commas and dashes between
    // them, may be typed too. An error quotes the text typed and counts in it.
    function rollTyped(text) {
      const lead = /^\s*r/i.exec(text);
      const kept = [];  // where each character of the roll's notation after its "r" was typed
      for (let index = lead ? lead[0].length : 0; index < text.length; index += 1) {
        if (!/[\s,-]/.test(text[index])) kept.push(index);
      }
      const digits = kept.map((index) => text[index]).join('');
      let action;
      try {
        action = N.parseAction(`r${digits}`);
      } catch (error) {
        if (!error || !error.rule) throw error;
        // The error counts in `r${digits}`, whose "r" was not typed.
        const after = error.at - 1;
        let typed;
        if (Number.isInteger(after)) typed = after < kept.length ? kept[Math.max(after, 0)] : text.length;
        say('cs-message', 'Type four dice from 1 to 6, like 2455: ', ...problem(error, text, typed));
        return;
      }
      if (act(action)) $('cs-dice').value = '';
    }

    function randomDice() {
      const dice = [];
      const bytes = new Uint8Array(16);
      while (dice.length < 4) {
        crypto.getRandomValues(bytes);
        for (const byte of bytes) if (byte < 252 && dice.length < 4) dice.push((byte % 6) + 1);
      }
      return dice;
    }

    function download() {
      const first = game.start;
      const lines = [JSON.stringify({
        record: 'cantstop', version: 1, rules: N.stateToJson(first).rules, first_player: first.player,
      })];
      for (let index = 0; index < game.cursor; index += 1) {
        const action = game.actions[index];
        const after = game.states[index + 1];
        const line = { action: N.actionToJson(action), state: N.formatState(after) };
        if (action.type === 'roll') {
          line.bust = game.events[index] === 'busted';
          line.moves = R.legalMoves(after).map(R.moveText);
        }
        lines.push(JSON.stringify(line));
      }
      const url = URL.createObjectURL(new Blob([`${lines.join('\n')}\n`], { type: 'application/x-ndjson' }));
      const link = el('a', { href: url, download: 'cantstop-game.jsonl' });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    }

    // ---- wiring ----------------------------------------------------------------------

    const submit = (id, handler) => $(id).addEventListener('submit', (event) => {
      event.preventDefault();
      handler();
    });

    submit('cs-new-game', () => {
      const players = Number($('cs-players').value);
      const toWin = Number($('cs-to-win').value);
      const variant = $('cs-variant').value || null;
      try {
        const first = R.newGame(R.makeRules(players, toWin, R.STANDARD, variant), 0);
        say('cs-start-message');
        open(N.formatState(first), [], null, 'cs-start-message');
        $('cs-dice').focus();
      } catch (error) {
        say('cs-start-message', 'No such game: ', ...problem(error));
      }
    });
    submit('cs-paste', () => {
      say('cs-start-message');
      if (open($('cs-state-input').value.trim(), [], null, 'cs-start-message')) focusNext();
    });
    submit('cs-example', () => {
      const example = data.examples[Number($('cs-example-choice').value)];
      say('cs-start-message');
      open(example.state, example.actions, example.explain, 'cs-start-message');
      focusNext();
    });
    submit('cs-roll', () => rollTyped($('cs-dice').value));
    $('cs-roll-random').addEventListener('click', () => act({ type: 'roll', dice: randomDice() }));
    $('cs-stop').addEventListener('click', () => act({ type: 'stop' }));
    $('cs-undo').addEventListener('click', () => {
      game.cursor -= 1;
      game.ask = null;
      say('cs-message');
      render();
      if ($('cs-undo').disabled) $('cs-redo').focus();
    });
    $('cs-redo').addEventListener('click', () => {
      game.cursor += 1;
      game.ask = null;
      say('cs-message');
      render();
      if ($('cs-redo').disabled) $('cs-undo').focus();
    });
    $('cs-download').addEventListener('click', download);
    $('cs-link').addEventListener('focus', () => $('cs-link').select());
    submit('cs-ask', () => {
      game.ask = $('cs-action').value.trim() || null;
      render();
    });
    $('cs-ask-play').addEventListener('click', () => {
      const text = $('cs-action').value.trim();
      try {
        act(N.parseAction(text));
      } catch (error) {
        say('cs-message', ...problem(error, text));
      }
    });
    window.addEventListener('hashchange', () => {
      if (location.hash !== written) openFragment();
    });

    // The spec's examples, by chapter.
    const groups = new Map();
    data.examples.forEach((example, index) => {
      if (!groups.has(example.chapter)) groups.set(example.chapter, el('optgroup', { label: example.chapter }));
      groups.get(example.chapter).append(el('option', { value: String(index), text: `${example.id} ${example.title}` }));
    });
    $('cs-example-choice').replaceChildren(...groups.values());

    $('cs-loading').hidden = true;
    document.querySelector('.cs-tryit-grid').hidden = false;
    openFragment();
  };
})();
