/**
 * The admin command line's commands, independent of how they arrive (directly, or through the running
 * service's admin socket). Each returns a JSON-able result; mistakes are thrown as domain errors whose
 * messages say what to type instead.
 */
import { parseArgs } from 'node:util';
import { ValidationError } from '../core/errors.js';
import type { PartnerClients } from '../core/oauth/client-rules.js';
import type { PartnerService } from '../core/partners/service.js';

export interface AdminDeps {
  partners: PartnerService;
  clients: PartnerClients;
}

export const USAGE = `Usage: npm run admin -- <command> [options]

  partner create --name NAME [--plan PLAN] [--allow OPERATION_ID ...]
  partner update --partner PARTNER_ID [--plan PLAN] [--allow OPERATION_ID ... | --allow-all]
  partner list
  key create --partner PARTNER_ID
  key revoke --key KEY_ID_OR_PREFIX
  plan set --name PLAN --rps N --burst N --per-day N
  plan list
  client create --partner PARTNER_ID --name NAME --redirect-uri URI [--redirect-uri URI ...] [--public]
      An OAuth client of the partner. Prints {client_id, client_secret}: the secret is shown this once
      (none for --public). Confidential clients redirect to https URLs only, never localhost; a --public
      client may also use http://localhost:<port> and http://127.0.0.1:<port>. At most 10 redirect URIs of
      2,000 characters; the name is plain text of at most 100 characters.

Output is JSON on stdout; errors go to stderr with a non-zero exit code.`;

const OPTIONS = {
  name: { type: 'string' },
  plan: { type: 'string' },
  partner: { type: 'string' },
  key: { type: 'string' },
  allow: { type: 'string', multiple: true },
  'allow-all': { type: 'boolean' },
  rps: { type: 'string' },
  burst: { type: 'string' },
  'per-day': { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  public: { type: 'boolean' },
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
      });
    case 'plan list':
      return partners.listPlans();
    default:
      throw usageError(command === '' || values.help ? 'Name a command.' : `Unknown command "${command}".`);
  }
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

function usageError(problem: string): ValidationError {
  return new ValidationError([], `${problem}\n\n${USAGE}`);
}
