/**
 * The admin command line's commands, independent of how they arrive (directly, or through the running
 * service's admin socket). Each returns a JSON-able result; mistakes are thrown as domain errors whose
 * messages say what to type instead.
 */
import { parseArgs } from 'node:util';
import { ForbiddenError, ValidationError } from '../core/errors.js';
import type { PartnerClients } from '../core/oauth/client-rules.js';
import type { PartnerService } from '../core/partners/service.js';
import { METHOD_TYPES } from '../core/payment-methods/schemas.js';
import type { PaymentMethodService } from '../core/payment-methods/service.js';
import { CARD_BRANDS } from '../core/ports.js';

export interface AdminDeps {
  partners: PartnerService;
  clients: PartnerClients;
  paymentMethods: Pick<PaymentMethodService, 'importLegacy'>;
  /** Sandbox mode (config.sandbox): sign-in limits may be reset only then. Absent: not sandbox mode. */
  sandbox?: boolean;
  /** The sign-in code counters this command can reach (authz/abuse-limits.ts); absent: none. */
  signInLimits?: SignInLimitsReset;
}

export interface SignInLimitsReset {
  /** Redis, shared by every instance; or the memory of the service process answering the command. */
  readonly countedIn: 'redis' | 'memory';
  forgetAddress(email: string): Promise<void>;
}

const UNREACHABLE_COUNTS =
  'Nothing was reset: without REDIS_URL the sign-in limits are counted in the memory of the running service, ' +
  'which this command reaches only through its admin socket (embedded database, no DATABASE_URL). No service ' +
  'answered there: a stopped service kept no counts; a running one on DATABASE_URL keeps them until it restarts ' +
  '(restart it, or give it REDIS_URL).';

export const USAGE = `Usage: npm run admin -- <command> [options]

  partner create --name NAME [--plan PLAN] [--allow OPERATION_ID ...]
  partner update --partner PARTNER_ID [--plan PLAN] [--allow OPERATION_ID ... | --allow-all]
  partner list
  key create --partner PARTNER_ID [--publishable --origin ORIGIN [--origin ORIGIN ...]]
      A secret key (tpk_...) for the partner's backend, or with --publishable a key for its web pages
      (pk_test_... in sandbox mode, pk_live_... in production) that works only on the checkout's routes
      (createProviderOffer, getProviderOffer, createCheckoutSession) and only from the listed origins:
      each exactly as a browser sends it in Origin (https://shop.example, no path, no trailing slash, no
      wildcard; http:// only on localhost or 127.0.0.1, or in sandbox mode), at most 20. Prints
      {partner_id, key_id, prefix, api_key[, kind, allowed_origins]}: the key is shown this once.
  key revoke --key KEY_ID_OR_PREFIX
  plan set --name PLAN --rps N --burst N --per-day N
  plan list
  client create --partner PARTNER_ID --name NAME --redirect-uri URI [--redirect-uri URI ...] [--public] [--airline]
      An OAuth client of the partner. Prints {client_id, client_secret}: the secret is shown this once
      (none for --public). Confidential clients redirect to https URLs only, never localhost; a --public
      client may also use http://localhost:<port> and http://127.0.0.1:<port>. At most 10 redirect URIs of
      2,000 characters; the name is plain text of at most 100 characters. --airline: see below.
  client mark-airline --client CLIENT_ID
  client unmark-airline --client CLIENT_ID
      An airline client is a partner's client that recognizes travelers on the airline's sites: only it is
      served by /v1/identity/* and the recognition frame, and its consent page tells the traveler so.
      Unmarked, those refuse it as an unknown client at once. Prints {client_id, partner_id, airline}.
  payment-method import-legacy --user USER_ID_OR_EMAIL --brand BRAND --last4 NNNN --exp-month M --exp-year YYYY
      [--method-type credit_card|apple_pay|google_pay|pay_later] [--default] [--legacy-reference REF]
      A card carried over from the previous processor, with no vault token: it lists, changes expiry and
      default, and deletes like any card, but has no cardholder name or billing ZIP. BRAND: visa, mastercard,
      amex or discover. --default makes it the traveler's default; REF (the old processor's ids) is sealed.
      Prints {id}.
  sign-in-limits reset --email ADDRESS
      Sandbox mode only (refused otherwise): the sign-in code limits apply in sandbox mode too, and this
      gives ADDRESS its whole budget back, from every network. Prints {email, reset, counted_in}. The
      counts live in Redis (REDIS_URL), or else in the running service's memory, reached only through its
      admin socket (embedded database): with neither, it prints reset: false and a note saying why.

Output is JSON on stdout; errors go to stderr with a non-zero exit code.`;

const OPTIONS = {
  name: { type: 'string' },
  plan: { type: 'string' },
  partner: { type: 'string' },
  key: { type: 'string' },
  publishable: { type: 'boolean' },
  origin: { type: 'string', multiple: true },
  allow: { type: 'string', multiple: true },
  'allow-all': { type: 'boolean' },
  rps: { type: 'string' },
  burst: { type: 'string' },
  'per-day': { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  public: { type: 'boolean' },
  airline: { type: 'boolean' },
  client: { type: 'string' },
  user: { type: 'string' },
  brand: { type: 'string' },
  last4: { type: 'string' },
  'exp-month': { type: 'string' },
  'exp-year': { type: 'string' },
  'method-type': { type: 'string' },
  default: { type: 'boolean' },
  'legacy-reference': { type: 'string' },
  email: { type: 'string' },
  help: { type: 'boolean' },
} as const;

export async function runAdminCommand(argv: string[], deps: AdminDeps): Promise<unknown> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const command = positionals.join(' ');
  const { partners } = deps;

  switch (command) {
    case 'partner create':
      return partners.createPartner({
        name: required(values.name, '--name'),
        plan_id: values.plan,
        allowed_operations: values.allow ?? null,
      });
    case 'partner update':
      return partners.updatePartner({
        partner_id: required(values.partner, '--partner'),
        plan_id: values.plan,
        allowed_operations: values['allow-all'] ? null : values.allow,
      });
    case 'partner list':
      return partners.listPartners();
    case 'key create':
      if (values.publishable) {
        return partners.createPublishableKey({ partner_id: required(values.partner, '--partner'), allowed_origins: values.origin ?? [] });
      }
      if (values.origin) throw usageError('--origin is for publishable keys only: add --publishable (a secret key works from your backend, not from a browser).');
      return partners.createKey(required(values.partner, '--partner'));
    case 'key revoke':
      return partners.revokeKey(required(values.key, '--key'));
    case 'plan set':
      return partners.setPlan({
        id: required(values.name, '--name'),
        requests_per_second: integer(values.rps, '--rps'),
        burst: integer(values.burst, '--burst'),
        requests_per_day: integer(values['per-day'], '--per-day'),
      });
    case 'client create':
      return deps.clients.create({
        partner_id: required(values.partner, '--partner'),
        name: required(values.name, '--name'),
        redirect_uris: values['redirect-uri'] ?? [],
        public: values.public ?? false,
        airline: values.airline ?? false,
      });
    case 'client mark-airline':
      return deps.clients.setAirline(required(values.client, '--client'), true);
    case 'client unmark-airline':
      return deps.clients.setAirline(required(values.client, '--client'), false);
    case 'plan list':
      return partners.listPlans();
    case 'payment-method import-legacy':
      return deps.paymentMethods.importLegacy({
        user: required(values.user, '--user'),
        brand: oneOf(required(values.brand, '--brand'), CARD_BRANDS, '--brand'),
        last4: required(values.last4, '--last4'),
        expMonth: integer(values['exp-month'], '--exp-month'),
        expYear: integer(values['exp-year'], '--exp-year'),
        methodType: values['method-type'] === undefined ? undefined : oneOf(values['method-type'], METHOD_TYPES, '--method-type'),
        isDefault: values.default ?? false,
        legacyReference: values['legacy-reference'],
      });
    case 'sign-in-limits reset':
      return resetSignInLimits(required(values.email, '--email'), deps);
    default:
      throw usageError(command === '' || values.help ? 'Name a command.' : `Unknown command "${command}".`);
  }
}

async function resetSignInLimits(email: string, deps: AdminDeps) {
  if (!deps.sandbox) {
    throw new ForbiddenError('sign-in-limits reset works in sandbox mode only (SANDBOX=1): elsewhere the limits protect real inboxes, and an address waits out its window.', 'sandbox_only');
  }
  const address = email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(address)) throw usageError(`--email must be an e-mail address (got "${email}").`);
  if (!deps.signInLimits) return { email: address, reset: false, counted_in: null, note: UNREACHABLE_COUNTS };
  await deps.signInLimits.forgetAddress(address);
  return { email: address, reset: true, counted_in: deps.signInLimits.countedIn === 'redis' ? 'redis' : 'service_memory' };
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw usageError(`${flag} is required.`);
  return value;
}

function integer(value: string | undefined, flag: string): number {
  const text = required(value, flag);
  if (!/^\d+$/.test(text)) throw usageError(`${flag} must be a whole number (got "${text}").`);
  return Number(text);
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw usageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}").`);
  return value as T;
}

function usageError(problem: string): ValidationError {
  return new ValidationError([], `${problem}\n\n${USAGE}`);
}
