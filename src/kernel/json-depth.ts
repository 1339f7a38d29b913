/**
 * The JSON depth limit (docs/edge.md#bounds): a body nested deeper than 64 levels is refused before any other
 * check, so that no recursive walk of it (shape checks, canonical hashing, stored copies, GraphQL input coercion)
 * can overflow the stack and answer 500 `internal`, retryable, to what is a client's mistake.
 * Both checks are iterative: a limit on recursion must not itself recurse.
 */
export const MAX_JSON_DEPTH = 64;

export const JSON_TOO_DEEP_MESSAGE = `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`;

const OPEN_BRACE = 0x7b; // {
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACE = 0x7d; // }
const CLOSE_BRACKET = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * True when JSON text opens more than `max` objects or arrays inside each other (the outermost one is level 1).
 * Reads the text once, skipping strings, before it is parsed; malformed text is left to JSON.parse to refuse.
 */
export function jsonTextTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * The same limit for a value already parsed by someone else (yoga's request parser, graphql-ws's message parser):
 * true when objects and arrays are nested more than `max` levels inside each other, counting `value` as level 1.
 */
export function jsonValueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child as object, depth + 1]);
    }
  }
  return false;
}
