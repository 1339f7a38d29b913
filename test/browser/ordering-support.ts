/** Shared by the ordering page and staff console suites: a server process, the two screen sizes, filling the form. */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { client, freePort } from '../support/browser.ts';
import { startProcess } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

export const ADMIN_TOKEN = 'test-admin';
/** The sizes issue 8 names: a phone and a laptop. */
export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

/** A server process on a free port (PUBLIC_URL pointing at it) and a client for staff calls. */
export async function startServer(extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startProcess({
    PORT: String(port),
    DATABASE_URL: `file:${join(tempDir(), 'sleeve.db')}`,
    ADMIN_TOKEN,
    PUBLIC_URL: base,
    ...extraEnv,
  });
  expect(server.url).toBe(base);
  return { base, server, api: client(base, ADMIN_TOKEN) };
}

/** Fills the form on an open ordering page and goes on to the confirmation. */
export async function fillOrder(page: Page, order: { size: string; font: string; thread: string; stitchText: string; name: string; email: string }) {
  for (const kind of ['size', 'font', 'thread'] as const) await page.locator(`input[name="${kind}"][value="${order[kind]}"]`).check();
  await page.getByLabel('Text to stitch').fill(order.stitchText);
  await page.getByLabel('First and last name').fill(order.name);
  await page.getByLabel('Email').fill(order.email);
  await page.getByRole('button', { name: 'Review my order' }).click();
  await page.locator('#confirm').waitFor({ state: 'visible' });
}
