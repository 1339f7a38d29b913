/**
 * A string literal in the document holding U+0000 is refused at validation, as a variable holding one is refused
 * before anything runs (use-request-parsing.ts, src/kernel/unicode-text.ts): no field takes it. Without this rule
 * a literal reached the services, which PostgreSQL answered 400 from its SQLSTATE but SQLite stored, in an order's
 * name for one. A lone surrogate needs no rule: graphql-js's lexer refuses `"\uD800"` as an invalid escape.
 *
 * A validation rule, so it runs once per distinct document (document-cache.ts keeps the result) and the fast JSON
 * path, which answers only documents yoga found valid, never meets such a literal.
 */
import { GraphQLError, Kind, type ASTNode, type ASTVisitor, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { forbiddenCharacterIn, forbiddenCharacterMessage } from '../src/kernel/unicode-text.ts';

/** `createOrder(input.name)`: the field whose argument holds the literal, and the path inside that argument. */
function placeOf(ancestors: readonly (ASTNode | readonly ASTNode[])[]): string {
  let field = '';
  const inside: string[] = [];
  for (const ancestor of ancestors) {
    if (Array.isArray(ancestor) || !('kind' in ancestor)) continue;
    const node = ancestor as ASTNode;
    if (node.kind === Kind.FIELD) {
      field = node.name.value;
      inside.length = 0;
    } else if (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD) {
      inside.push(node.name.value);
    }
  }
  return inside.length > 0 ? `${field}(${inside.join('.')})` : 'A string literal';
}

export function textLiteralRule(context: ValidationContext): ASTVisitor {
  return {
    StringValue(node, _key, parent, _path, ancestors) {
      // The kernel's test, as every door's: only U+0000 reaches here (the lexer refuses a lone surrogate's escape).
      const character = forbiddenCharacterIn(node.value);
      if (character === null) return;
      // graphql-js's ancestors stop above the parent: an argument's or an input field's own node.
      const message = forbiddenCharacterMessage(placeOf(parent === undefined ? ancestors : [...ancestors, parent]), character);
      // Marked as the operation cost rule marks its refusal: 400 under graphql-response+json (request-errors.ts).
      context.reportError(new GraphQLError(message, { nodes: node, extensions: { code: 'BAD_USER_INPUT', http: { status: 400, spec: true } } }));
    },
  };
}

export const useTextLiterals: Plugin = {
  onValidate: ({ addValidationRule }) => addValidationRule(textLiteralRule),
};
