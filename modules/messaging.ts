/**
 * Mail and text messages: an SMTP relay or the mail sandbox, an SMS gateway or its sandbox, and in
 * sandbox mode the outbox they deliver to (a developer reads sign-in codes there).
 */
import type { Config } from '../config.js';
import type { Database } from '../core/db/database.js';
import type { Logger } from '../core/logger.js';
import type { Mailer, SmsSender } from '../core/ports.js';
import { SandboxMailer, SandboxSms } from '../providers/sandbox-outbox/client.js';
import { UnconfiguredSms } from '../providers/sms/unconfigured-sms.js';
import type { Capability } from './capability.js';

// The SMTP client (nodemailer, a large library) and the outbox sandbox are loaded only when used: a
// development start has no relay, a production one no sandbox.
export async function messagingModule(deps: { config: Config; db: Database; logger: Logger }): Promise<Capability & { mailer: Mailer; sms: SmsSender }> {
  const { config } = deps;
  const mailer = config.smtpUrl
    ? new (await import('../providers/mail/smtp-mailer.js')).SmtpMailer(config.smtpUrl, config.mailFrom, deps.logger)
    : new SandboxMailer(config.sandboxUrl);
  const smsGateway = config.smsUrl ?? (config.sandbox ? config.sandboxUrl : undefined);
  const sms: SmsSender = smsGateway ? new SandboxSms(smsGateway) : new UnconfiguredSms();
  const sandboxes = config.sandbox ? [(await import('../providers/sandbox-outbox/sandbox.js')).outboxSandbox(deps.db.knex)] : [];
  return { mailer, sms, sandboxes };
}
