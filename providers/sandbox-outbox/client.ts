/** The Mailer and SmsSender that deliver to the sandboxes, over HTTP like a real relay's API. */
import { ProviderUnavailableError } from '../../core/errors.js';
import type { MailMessage, Mailer, SmsMessage, SmsSender } from '../../core/ports.js';
import { HttpClient } from '../http-client.js';

function client(sandboxUrl: string): HttpClient {
  return new HttpClient({ baseUrl: sandboxUrl, headers: {}, timeoutMs: 5000 });
}

async function deliver(http: HttpClient, path: string, message: object, failure: ProviderUnavailableError): Promise<void> {
  try {
    await http.json({ method: 'POST', path, json: message });
  } catch {
    throw failure;
  }
}

function mailFailure(): ProviderUnavailableError {
  return new ProviderUnavailableError('The e-mail could not be sent just now: try again in a moment.', 'mail_unavailable');
}

export class SandboxMailer implements Mailer {
  readonly #http: HttpClient;

  constructor(sandboxUrl: string) {
    this.#http = client(sandboxUrl);
  }

  send(message: MailMessage): Promise<void> {
    return deliver(this.#http, 'mail/messages', message, mailFailure());
  }
}

export class SandboxSms implements SmsSender {
  readonly #http: HttpClient;

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
