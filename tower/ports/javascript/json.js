// A strict reader of I-JSON text (RFC 7493), for protocol lines and embedded boards.
//
// JSON.parse would read 2.0 as the integer 2, 1e999 as Infinity and a
// 20-digit integer as an approximation. This reader keeps what the rules
// need to tell apart: a number written with a fraction or an exponent comes
// back as a Real, never as an integer; an integer beyond ±(2**53 - 1), a
// number beyond the range of a double, and nesting past the given depth are
// refused with a JsonError whose message says which.

const MAX_SAFE = 2 ** 53 - 1;

class JsonError extends Error {}

// A JSON number written with a fraction or an exponent: never an integer of the rules.
class Real {
  constructor(value) {
    this.value = value;
  }
}

function readJson(text, maxDepth = 64) {
  let i = 0;
  const fail = (message) => {
    throw new JsonError(`${message} at column ${i + 1}`);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i += 1;
  };
  const value = (depth) => {
    space();
    const ch = text[i];
    if (ch === '{' || ch === '[') {
      if (depth >= maxDepth) throw new JsonError(`JSON nested more than ${maxDepth} levels deep`);
      return ch === '{' ? object(depth + 1) : array(depth + 1);
    }
    if (ch === '"') return string();
    if (ch === '-' || (ch >= '0' && ch <= '9')) return number();
    for (const [word, result] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return result;
      }
    }
    if (text.startsWith('NaN', i) || text.startsWith('Infinity', i)) throw new JsonError('NaN is not JSON');
    return fail('expected a value');
  };
  const object = (depth) => {
    const out = {};
    i += 1;
    space();
    if (text[i] === '}') {
      i += 1;
      return out;
    }
    for (;;) {
      space();
      if (text[i] !== '"') fail('expected a key');
      const key = string();
      space();
      if (text[i] !== ':') fail("expected ':'");
      i += 1;
      Object.defineProperty(out, key, { value: value(depth), enumerable: true, writable: true, configurable: true });
      space();
      if (text[i] === ',') {
        i += 1;
        continue;
      }
      if (text[i] === '}') {
        i += 1;
        return out;
      }
      fail("expected ',' or '}'");
    }
  };
  const array = (depth) => {
    const out = [];
    i += 1;
    space();
    if (text[i] === ']') {
      i += 1;
      return out;
    }
    for (;;) {
      out.push(value(depth));
      space();
      if (text[i] === ',') {
        i += 1;
        continue;
      }
      if (text[i] === ']') {
        i += 1;
        return out;
      }
      fail("expected ',' or ']'");
    }
  };
  const string = () => {
    let out = '';
    i += 1;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const ch = text[i];
      if (ch === '"') {
        i += 1;
        return out;
      }
      if (ch < ' ') fail('a control character in a string');
      if (ch !== '\\') {
        out += ch;
        i += 1;
        continue;
      }
      const esc = text[i + 1];
      const simple = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (esc in simple) {
        out += simple[esc];
        i += 2;
      } else if (esc === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        fail('a bad escape in a string');
      }
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (!match) fail('a malformed number');
    const token = match[0];
    i += token.length;
    const parsed = Number(token);
    if (!Number.isFinite(parsed)) throw new JsonError(`a number out of range: ${token.slice(0, 20)}`);
    if (match[2] === undefined && match[3] === undefined) {
      if (token.replace('-', '').length > 16 || Math.abs(parsed) > MAX_SAFE) {
        throw new JsonError(`a number out of range: ${token.slice(0, 20)}`);
      }
      return parsed;
    }
    return new Real(parsed);
  };
  const result = value(0);
  space();
  if (i !== text.length) fail('characters after the JSON value');
  return result;
}

// Whether a value read by readJson is an integer.
const isInt = (v) => typeof v === 'number' && Number.isInteger(v);

export { JsonError, Real, readJson, isInt };
