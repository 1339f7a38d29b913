/**
 * Which driver errors are an outage (answered 503 `unavailable`, docs/operations.md#when-postgresql-goes-away) and
 * which are what a query did, left to the code that handles them: a unique violation must still become `duplicate`,
 * a serialization failure must still be retried. The errors are pg's and Node's own, made the way they make them.
 */
import { DatabaseError } from 'pg';
import { describe, expect, it } from 'vitest';
import { isConnectionLoss } from '../../src/db/connection-loss.ts';
import { DomainError } from '../../src/kernel/errors.ts';

const pgError = (code: string) => Object.assign(new DatabaseError('from the server', 0, 'error'), { code });
const nodeError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('isConnectionLoss', () => {
  it.each([
    ['the server shutting down (57P01)', pgError('57P01')],
    ['the server crashing (57P02)', pgError('57P02')],
    ['the server starting (57P03)', pgError('57P03')],
    ['too many connections (53300)', pgError('53300')],
    ['a connection failure (08006)', pgError('08006')],
    ['a refused connection', nodeError('ECONNREFUSED')],
    ['a reset connection', nodeError('ECONNRESET')],
    ['an unknown host', nodeError('ENOTFOUND')],
    ['a socket closed under pg', new Error('Connection terminated unexpectedly')],
    ['a client pg knows is dead', new Error('Client has encountered a connection error and is not queryable')],
    ['no connection free in time', new Error('timeout exceeded when trying to connect')],
  ])('is an outage: %s', (_name, error) => {
    expect(isConnectionLoss(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', pgError('23505')],
    ['a serialization failure (40001)', pgError('40001')],
    ['a deadlock (40P01)', pgError('40P01')],
    ['a syntax error (42601)', pgError('42601')],
    ['a missing table (42P01)', pgError('42P01')],
    ['an SQLite busy database', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
    ['a DomainError', new DomainError('unavailable', 'already mapped')],
    ['a plain Error', new Error('something else')],
    ['a string', 'Connection terminated'],
  ])('is not: %s', (_name, error) => {
    expect(isConnectionLoss(error)).toBe(false);
  });
});
