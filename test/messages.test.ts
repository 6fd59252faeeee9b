/**
 * Mail and SMS: the sandboxes (reached over HTTP by their adapters, read back per recipient) and the
 * SMTP adapter against a real SMTP server on loopback.
 */
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { SMTPServer } from 'smtp-server';
import { ProviderUnavailableError } from '../core/errors.js';
import { SmtpMailer } from '../providers/mail/smtp-mailer.js';
import { SandboxMailer } from '../providers/sandbox-outbox/client.js';
import { jsonOf } from './helpers/http.js';
import { freePort, startService, type RunningService } from './helpers/service.js';

let running: RunningService;
test.before(async () => {
  running = await startService();
});
test.after.always(async () => {
  await running?.close();
});

test.serial('mail sent through the sandbox is listed per recipient, newest first, case-insensitively', async (t) => {
  await running.service.mailer.send({ to: 'Ada@Example.com', subject: 'Your code', text: 'Your sign-in code is 123456.' });
  await running.service.mailer.send({ to: 'ada@example.com', subject: 'Your code', text: 'Your sign-in code is 654321.' });
  await running.service.mailer.send({ to: 'grace@example.com', subject: 'Hello', text: 'Not for Ada.' });

  const response = await fetch(`${running.url}/sandbox/mail/messages?to=ADA@example.com`);
  t.is(response.status, 200);
  const messages = await jsonOf(response);
  t.is(messages.length, 2);
  t.like(messages[0], { to: 'ada@example.com', subject: 'Your code', text: 'Your sign-in code is 654321.' });
  t.like(messages[1], { text: 'Your sign-in code is 123456.' });
  t.regex(messages[0].sent_at, /^\d{4}-\d\d-\d\dT.*Z$/);
  t.deepEqual(Object.keys(messages[0]).sort(), ['sent_at', 'subject', 'text', 'to']);
});

test.serial('text messages likewise', async (t) => {
  await running.service.sms.send({ to: '+447700900123', text: 'Code 12345678' });
  const messages = await jsonOf(await fetch(`${running.url}/sandbox/sms/messages?to=%2B447700900123`));
  t.deepEqual(
    messages.map((message: { to: string; text: string }) => [message.to, message.text]),
    [['+447700900123', 'Code 12345678']],
  );
});

test.serial('the sandboxes check what they are sent and asked', async (t) => {
  const bad = await fetch(`${running.url}/sandbox/mail/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: 'not-an-address', subject: '', text: 'x' }),
  });
  t.is(bad.status, 400);
  t.like((await jsonOf(bad)).fields, { to: { rule: 'email' }, subject: { rule: 'min_length' } });
  t.is((await fetch(`${running.url}/sandbox/mail/messages`)).status, 400);
  // Text PostgreSQL cannot store is refused like the API refuses it, not a 500.
  const nul = await fetch(`${running.url}/sandbox/mail/messages?to=a%00@example.com`);
  t.is(nul.status, 400);
  t.is((await jsonOf(nul)).fields.to.rule, 'no_nul');
  const badNumber = await fetch(`${running.url}/sandbox/sms/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: '07700900123', text: 'x' }),
  });
  t.is(badNumber.status, 400);
});

test('reading a sandbox without ?to= says to name the recipient, in the validation envelope', async (t) => {
  for (const channel of ['mail', 'sms']) {
    for (const query of ['', '?to=', '?to=%20%20']) {
      const response = await fetch(`${running.url}/sandbox/${channel}/messages${query}`);
      t.is(response.status, 400, `${channel}${query}`);
      const body = await jsonOf(response);
      t.is(body.code, 'validation_error');
      t.regex(body.message, /fields/);
      t.like(body.fields.to, { field: 'to', rule: 'required' });
      t.regex(body.fields.to.message, channel === 'mail' ? /\?to=.*@/ : /\?to=%2B/, 'the message shows how to name the recipient');
    }
  }
});

test.serial('without the sandbox there are no sandbox routes', async (t) => {
  const plain = await startService({ SANDBOX: '0', SMTP_URL: 'smtp://127.0.0.1:1' });
  try {
    const response = await fetch(`${plain.url}/sandbox/mail/messages?to=ada@example.com`);
    t.is(response.status, 404);
    t.is((await jsonOf(response)).code, 'route_not_found');
  } finally {
    await plain.close();
  }
});

test('an unreachable mail sandbox is a provider_unavailable error without its address', async (t) => {
  const mailer = new SandboxMailer(`http://127.0.0.1:${await freePort()}/sandbox`);
  const error = await t.throwsAsync(mailer.send({ to: 'a@example.com', subject: 's', text: 't' }), { instanceOf: ProviderUnavailableError });
  t.is(error.code, 'mail_unavailable');
  t.notRegex(error.message, /127\.0\.0\.1/);
});

test('the SMTP adapter delivers to a real SMTP server, and fails cleanly when none answers', async (t) => {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk) => (data += chunk));
      stream.on('end', () => {
        received.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'Travel Partner <no-reply@example.com>');
  try {
    await mailer.send({ to: 'ada@example.com', subject: 'Your code', text: 'Your sign-in code is 12345678.' });
    t.is(received.length, 1);
    t.regex(received[0] as string, /Subject: Your code/);
    t.regex(received[0] as string, /Your sign-in code is 12345678\./);
    t.regex(received[0] as string, /From: Travel Partner <no-reply@example\.com>/);
  } finally {
    mailer.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  const nowhere = new SmtpMailer(`smtp://127.0.0.1:${await freePort()}`, 'x <x@example.com>');
  const error = await t.throwsAsync(nowhere.send({ to: 'a@example.com', subject: 's', text: 't' }), { instanceOf: ProviderUnavailableError });
  t.is(error.code, 'mail_unavailable');
  nowhere.close();
});

test.serial('without the sandbox and without a gateway, text messages are refused plainly', async (t) => {
  const plain = await startService({ SANDBOX: '0', SMTP_URL: 'smtp://127.0.0.1:1' });
  try {
    const error = await t.throwsAsync(plain.service.sms.send({ to: '+447700900123', text: 'x' }), { instanceOf: ProviderUnavailableError });
    t.is(error.code, 'sms_unavailable');
  } finally {
    await plain.close();
  }
});
