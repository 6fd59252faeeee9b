/**
 * The outside systems the domain talks to, as interfaces. Adapters in providers/ implement them; the
 * composition root picks one (a real system's, or its sandbox's) from the configuration.
 */

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text: one-time codes are sent as one unbroken run of digits. */
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface SmsMessage {
  /** E.164. */
  to: string;
  text: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}
