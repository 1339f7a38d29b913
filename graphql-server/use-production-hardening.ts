/**
 * GRAPHQL_PRODUCTION=on (docs/graphql.md#production): the schema is not read back by strangers. Introspection
 * (`__schema`, `__type`) is refused to callers without the staff token — graphql-js's NoSchemaIntrospectionCustomRule,
 * so the error is its own — while staff keep it (GraphiQL needs it); and no error says "Did you mean …", which
 * would spell out field, argument, type and enum names one guess at a time. `__typename` stays: it is no
 * introspection of the schema, and clients' caches ask for it (its aliases count against the alias limit instead,
 * yoga-server.ts).
 *
 * One policy for every way in: yoga's pipeline (the plugin below: validation, and the results of execution), the
 * fast JSON path (which hands a refused document to yoga) and graphql-ws (whose validation runs this plugin too;
 * ws-transport.ts hides suggestions in what it sends).
 *
 * Suggestions are cut out with our own pattern rather than GraphQL Armor's block-field-suggestions plugin: its
 * pattern (`Did you mean ".+"?`) misses graphql-js's enum values ("Did you mean the enum value "VENDOR_CARD"?"), and
 * it sees only validation errors, not a variable's coercion error from graphql-js's execution (subscriptions,
 * documents of several operations).
 */
import { GraphQLError, NoSchemaIntrospectionCustomRule, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { authorizationOf, type InitialContext } from './context-factory.ts';

/** " Did you mean "a", "b" or "c"?" and " Did you mean the enum value "X"?" — graphql-js's didYouMean, every form. */
const SUGGESTION = /\s*Did you mean [^?]*\?/gu;

export interface ProductionHardeningOptions {
  /** GRAPHQL_PRODUCTION. */
  on: boolean;
  isStaff(authorization: string | null | undefined): boolean;
}

export class ProductionHardening {
  readonly on: boolean;
  /** Per document: what NoSchemaIntrospectionCustomRule says about it (usually nothing). */
  private readonly introspection = new WeakMap<DocumentNode, readonly GraphQLError[]>();

  constructor(private readonly options: ProductionHardeningOptions) {
    this.on = options.on;
  }

  /** The errors refusing this document's introspection to this caller; none when off, for staff, or none asked. */
  introspectionRefusal(schema: GraphQLSchema, document: DocumentNode, authorization: string | null | undefined): readonly GraphQLError[] {
    if (!this.on) return NONE;
    let errors = this.introspection.get(document);
    if (errors === undefined) {
      errors = validate(schema, document, [NoSchemaIntrospectionCustomRule]).map(asValidationError);
      this.introspection.set(document, errors);
    }
    return errors.length === 0 || this.options.isStaff(authorization) ? NONE : errors;
  }

  /** Cuts "Did you mean …" out of each message, in place (as GraphQL Armor does), when on. */
  hideSuggestions<E extends { message: string }>(errors: readonly E[] | undefined): void {
    if (!this.on || !errors) return;
    for (const error of errors) if (error.message.includes('Did you mean')) error.message = error.message.replace(SUGGESTION, '');
  }
}

const NONE: readonly GraphQLError[] = Object.freeze([]);

/**
 * Marked as yoga's useHTTPValidationError marks a validation error (code, 400 under graphql-response+json): that
 * plugin marks only a result that failed validation to begin with, and this one is added after it.
 */
function asValidationError(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { spec: true, status: 400 } },
  });
}

/** After validation (and after the document cache has kept the plain result): suggestions cut, introspection refused. */
export function useProductionHardening(hardening: ProductionHardening): Plugin {
  return {
    onValidate({ params, context }) {
      if (!hardening.on) return;
      return ({ result, setResult }) => {
        hardening.hideSuggestions(result);
        const refusal = hardening.introspectionRefusal(params.schema, params.documentAST, authorizationOf(context as InitialContext));
        if (refusal.length > 0) setResult([...result, ...refusal]);
      };
    },
    onExecutionResult({ result }) {
      if (hardening.on && result && !isAsyncIterable(result)) hardening.hideSuggestions(result.errors);
    },
  };
}
