/**
 * The mail and SMS sandboxes: stand-ins for a mail relay and an SMS gateway, reached over HTTP like the
 * real ones would be. They keep what they are sent (in the database, so every instance sees it) and list
 * it per recipient, newest first:
 *
 *   POST /sandbox/mail/messages {to, subject, text}   GET /sandbox/mail/messages?to=<address>
 *   POST /sandbox/sms/messages  {to, text}            GET /sandbox/sms/messages?to=<E.164 number>
 *
 * Served only in sandbox mode. Listing is how a developer (or a test) reads a one-time code. Input is
 * checked as the API's is (checkInput: no NUL that PostgreSQL would refuse) and refusals are thrown as
 * ValidationError, so the app's error handler answers them in the API's validation envelope.
 */
import Router from '@koa/router';
import type { Knex } from 'knex';
import { koaBody } from 'koa-body';
import { z } from 'zod';
import { checkInput } from '../../core/input-checks.js';
import { parseOrThrow } from '../../core/validation.js';

const MailIn = z.strictObject({ to: z.email().max(255), subject: z.string().min(1).max(500), text: z.string().min(1).max(20_000) });
const SmsIn = z.strictObject({ to: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number'), text: z.string().min(1).max(1600) });
const CHANNELS = { mail: MailIn, sms: SmsIn } as const;
type Channel = keyof typeof CHANNELS;

/** Messages are listed per recipient only; a blank `?to=` is as good as none. */
function listQuery(hint: string) {
  const blankAsMissing = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
  return z.object({ to: z.preprocess(blankAsMissing, z.string({ error: hint })) });
}
const LIST_QUERIES = {
  mail: listQuery('name the recipient, e.g. ?to=ada@example.com'),
  sms: listQuery('name the recipient\'s number, with its + written %2B, e.g. ?to=%2B447700900123'),
} as const;

const MAX_LISTED = 100;

export function outboxSandbox(db: Knex): Router {
  const router = new Router({ prefix: '/sandbox' });
  const body = koaBody({ json: true, jsonLimit: '64kb', urlencoded: false, text: false, multipart: false });
  for (const channel of Object.keys(CHANNELS) as Channel[]) {
    router.post(`/${channel}/messages`, body, async (ctx) => {
      checkInput(ctx.request.body);
      const message = parseOrThrow(CHANNELS[channel], ctx.request.body) as { to: string; subject?: string; text: string };
      await db('sandbox_outbox').insert({
        channel,
        recipient: normalize(message.to),
        subject: message.subject ?? null,
        body: message.text,
      });
      ctx.status = 202;
      ctx.body = { accepted: true };
    });
    router.get(`/${channel}/messages`, async (ctx) => {
      checkInput(ctx.query);
      const { to } = parseOrThrow(LIST_QUERIES[channel], ctx.query);
      const rows: Array<{ recipient: string; subject: string | null; body: string; sent_at: Date }> = await db('sandbox_outbox')
        .select('recipient', 'subject', 'body', 'sent_at')
        .where({ channel, recipient: normalize(to) })
        .orderBy('id', 'desc')
        .limit(MAX_LISTED);
      ctx.body = rows.map((row) =>
        channel === 'mail'
          ? { to: row.recipient, subject: row.subject, text: row.body, sent_at: row.sent_at.toISOString() }
          : { to: row.recipient, text: row.body, sent_at: row.sent_at.toISOString() },
      );
    });
  }
  return router;
}

/** Addresses are matched without regard to case. */
function normalize(recipient: string): string {
  return recipient.trim().toLowerCase();
}
