/** Reads a node:http request body as text, refusing (and draining) anything past the limit. Both doors use it. */
import type { IncomingMessage } from 'node:http';
import { rawHeader } from './raw-headers.ts';

export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
}

export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  if (Number(rawHeader(req, 'content-length') ?? 0) > maxBytes) {
    req.resume(); // drain, so the 413 can still be written
    return Promise.reject(new PayloadTooLargeError());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        req.resume();
        reject(new PayloadTooLargeError());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
