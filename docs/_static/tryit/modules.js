// The JavaScript port's ES modules, imported unchanged, start the "Try it" page (app.js).
import * as rules from './port/rules.js';
import * as notation from './port/notation.js';
import * as board from './port/board.js';
import * as explain from './port/explain.js';

window.cantstopTryIt({ rules, notation, board, explain });
