/** Mail through a real SMTP relay (SMTP_URL), with nodemailer. */
import nodemailer, { type Transporter } from 'nodemailer';
import { ProviderUnavailableError } from '../../core/errors.js';
import type { MailMessage, Mailer } from '../../core/ports.js';

export class SmtpMailer implements Mailer {
  readonly #transport: Transporter;
  readonly #from: string;

  constructor(smtpUrl: string, from: string) {
    this.#transport = nodemailer.createTransport(smtpUrl);
    this.#from = from;
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.#transport.sendMail({ from: this.#from, to: message.to, subject: message.subject, text: message.text });
    } catch {
      // The relay's own words (and its address) stay out of what callers see.
      throw new ProviderUnavailableError('The e-mail could not be sent just now: try again in a moment.', 'mail_unavailable');
    }
  }

  close(): void {
    this.#transport.close();
  }
}
