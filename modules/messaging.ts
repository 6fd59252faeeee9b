/**
 * Mail and text messages: an SMTP relay or the mail sandbox, an SMS gateway or its sandbox, and in
 * sandbox mode the outbox they deliver to (a developer reads sign-in codes there).
 */
import type { Config } from '../config.js';
import type { Database } from '../core/db/database.js';
import type { Logger } from '../core/logger.js';
import type { Mailer, SmsSender } from '../core/ports.js';
import { SmtpMailer } from '../providers/mail/smtp-mailer.js';
import { SandboxMailer, SandboxSms } from '../providers/sandbox-outbox/client.js';
import { outboxSandbox } from '../providers/sandbox-outbox/sandbox.js';
import { UnconfiguredSms } from '../providers/sms/unconfigured-sms.js';
import type { Capability } from './capability.js';

export function messagingModule(deps: { config: Config; db: Database; logger: Logger }): Capability & { mailer: Mailer; sms: SmsSender } {
  const { config } = deps;
  const mailer = config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom, deps.logger) : new SandboxMailer(config.sandboxUrl);
  const smsGateway = config.smsUrl ?? (config.sandbox ? config.sandboxUrl : undefined);
  const sms: SmsSender = smsGateway ? new SandboxSms(smsGateway) : new UnconfiguredSms();
  return { mailer, sms, sandboxes: config.sandbox ? [outboxSandbox(deps.db.knex)] : [] };
}
