import { ProviderUnavailableError } from '../../core/errors.js';
import type { SmsSender } from '../../core/ports.js';

/** Without an SMS gateway (SANDBOX=0 and no SMS_URL), text messages are refused plainly. */
export class UnconfiguredSms implements SmsSender {
  async send(): Promise<void> {
    throw new ProviderUnavailableError('Text messages are not available on this service: sign in with the e-mail code instead.', 'sms_unavailable');
  }
}
