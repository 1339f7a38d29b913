// A merchant's receiver: WEBHOOK_SECRET is the endpoint's `whsec_…` secret (for the bootstrap endpoint,
// 'whsec_' + base64(MERCHANT_SIGNING_KEY)). Verify the raw body, before parsing it.
import { createServer } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const secret = process.env.WEBHOOK_SECRET;
const webhook = new Webhook(secret); // also refuses timestamps more than five minutes off
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
const seen = new Set(); // use a table in production

/** Document 2's `signature`: hex HMAC-SHA256 of the body, one value per secret during a rotation. */
function signatureMatches(raw, header = '') {
  const expected = createHmac('sha256', key).update(raw).digest();
  return header.split(' ').some((value) => {
    const given = Buffer.from(value, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (chunk) => (raw += chunk));
  req.on('end', () => {
    try {
      const body = webhook.verify(raw, req.headers); // throws on a bad signature or timestamp
      if (req.url.endsWith('/token-updated') && !signatureMatches(raw, req.headers.signature)) throw new Error('bad signature');
      if (!seen.has(req.headers['webhook-id'])) {
        seen.add(req.headers['webhook-id']);
        console.log('handled', req.url, JSON.stringify(body)); // handle it once
      }
      res.writeHead(200).end(); // any 2xx counts as delivered
    } catch (error) {
      console.log('refused', req.url, error.message);
      res.writeHead(400).end(); // retried on the schedule
    }
  });
});
server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => console.log('listening on', server.address().port));
