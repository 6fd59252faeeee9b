/** Mail through a real SMTP relay (SMTP_URL), with nodemailer. */
import nodemailer, { type Transporter } from 'nodemailer';
import { ProviderUnavailableError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { MailMessage, Mailer } from '../../core/ports.js';

export class SmtpMailer implements Mailer {
  readonly #transport: Transporter;
  readonly #from: string;
  readonly #logger: Logger | undefined;

  constructor(smtpUrl: string, from: string, logger?: Logger) {
    // A relay that stalls must not hold a sign-in open for minutes (nodemailer's defaults).
    this.#transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    this.#from = from;
    this.#logger = logger;
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.#transport.sendMail({ from: this.#from, to: message.to, subject: message.subject, text: message.text });
    } catch (error) {
      // The relay's own words (and its address) stay out of what callers see, and go to the log.
      const { code, message } = error as { code?: string; message?: string };
      this.#logger?.warn({ err: { code, message } }, 'SMTP delivery failed');
      throw new ProviderUnavailableError('The e-mail could not be sent just now: try again in a moment.', 'mail_unavailable');
    }
  }

  close(): void {
    this.#transport.close();
  }
}
