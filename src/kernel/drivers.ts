/**
 * The PostgreSQL and Redis clients, loaded the first time a DATABASE_URL or REDIS_URL names them, not when the
 * package is imported. An in-memory gateway on SQLite (a frontend team's tests, README "Testing against it") never
 * uses them; importing them was about 40 ms of the built package's 650 ms import (5 runs each), paid in every test
 * file's fresh module graph. Both are CommonJS, so a synchronous require keeps the callers' code synchronous; the
 * types stay the packages' own.
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** `pg` (its CommonJS exports: `Pool`, `Client`, `types`), loaded on first use. */
export function pgDriver(): typeof import('pg') {
  return load('pg') as typeof import('pg');
}

/** ioredis's `Redis` class, loaded on first use. */
export function RedisClient(): typeof import('ioredis').Redis {
  return (load('ioredis') as typeof import('ioredis')).Redis;
}
