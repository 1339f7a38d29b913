/** DateTime: an ISO 8601 string in UTC on output; accepts ISO strings on input. */
import { GraphQLError } from 'graphql';
import { builder } from './builder.ts';

builder.scalarType('DateTime', {
  description: 'A date and time, as an ISO 8601 string in UTC (e.g. 2026-11-22T15:05:00.000Z).',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : new Date(NaN);
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string.');
    return date;
  },
});
