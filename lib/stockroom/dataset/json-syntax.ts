/**
 * Locates the first JSON syntax error in a text. V8's JSON.parse reports a position for some
 * errors and none for others ("Unexpected token … is not valid JSON"), and a dataset error must name
 * the line, so the loader asks this small strict scanner where parsing went wrong.
 */

/** Where a JSON text stops being valid, or null when it is valid. */
export interface JsonSyntaxProblem {
  offset: number;
  message: string;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*/y;

class Problem {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

/** Returns the offset and a short description of the first syntax error, or null. */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text[i] as string)) i++;
  };
  const fail = (message: string): never => {
    throw new Problem(i, i >= text.length ? 'unexpected end of JSON input' : message);
  };
  const expect = (ch: string) => {
    if (text[i] !== ch) fail(`expected '${ch}', found '${text[i]}'`);
    i++;
  };
  const string = () => {
    expect('"');
    STRING_BODY.lastIndex = i;
    STRING_BODY.exec(text);
    i = STRING_BODY.lastIndex;
    if (text[i] !== '"') fail(`invalid character in string: ${JSON.stringify(text[i])}`);
    i++;
  };
  const value = (): void => {
    skip();
    const ch = text[i];
    if (ch === '{') {
      i++;
      skip();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skip();
        if (text[i] !== '"') fail(`expected a double-quoted property name, found '${text[i]}'`);
        string();
        skip();
        expect(':');
        value();
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected ',' or '}', found '${text[i]}'`);
      }
    }
    if (ch === '[') {
      i++;
      skip();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected ',' or ']', found '${text[i]}'`);
      }
    }
    if (ch === '"') return string();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    NUMBER.lastIndex = i;
    if (NUMBER.exec(text)) {
      i = NUMBER.lastIndex;
      return;
    }
    fail(`unexpected '${ch}'`);
  };
  try {
    value();
    skip();
    if (i < text.length) fail(`unexpected '${text[i]}' after the JSON value`);
    return null;
  } catch (err) {
    if (err instanceof Problem) return { offset: err.offset, message: err.message };
    throw err;
  }
}

/** 1-based line number of a character offset (LF, CRLF and CR all end a line). */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) line++;
  }
  return line;
}
