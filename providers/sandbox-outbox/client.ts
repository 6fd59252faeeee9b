/** The Mailer and SmsSender that deliver to the sandboxes, over HTTP like a real relay's API. */
import got, { type Got } from 'got';
import { ProviderUnavailableError } from '../../core/errors.js';
import type { MailMessage, Mailer, SmsMessage, SmsSender } from '../../core/ports.js';

function client(sandboxUrl: string): Got {
  return got.extend({ prefixUrl: sandboxUrl, timeout: { request: 5000 }, retry: { limit: 0 } });
}

async function deliver(http: Got, path: string, message: object, failure: ProviderUnavailableError): Promise<void> {
  try {
    await http.post(path, { json: message });
  } catch {
    throw failure;
  }
}

function mailFailure(): ProviderUnavailableError {
  return new ProviderUnavailableError('The e-mail could not be sent just now: try again in a moment.', 'mail_unavailable');
}

export class SandboxMailer implements Mailer {
  readonly #http: Got;

  constructor(sandboxUrl: string) {
    this.#http = client(sandboxUrl);
  }

  send(message: MailMessage): Promise<void> {
    return deliver(this.#http, 'mail/messages', message, mailFailure());
  }
}

export class SandboxSms implements SmsSender {
  readonly #http: Got;

  constructor(sandboxUrl: string) {
    this.#http = client(sandboxUrl);
  }

  send(message: SmsMessage): Promise<void> {
    return deliver(
      this.#http,
      'sms/messages',
      message,
      new ProviderUnavailableError('The text message could not be sent just now: try again in a moment.', 'sms_unavailable'),
    );
  }
}
