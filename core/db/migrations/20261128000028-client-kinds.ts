import type { Knex } from 'knex';

/**
 * Kinds of clients (decisions §13): partner clients, airline clients (partner clients the operator marks
 * with `airline` in their metadata), and agents (self-registered, no partner). What becomes of the rows made
 * before:
 * - A partner client that shows it has used the identity surface (a loyalty link, a recognition token still
 *   on record, or a traveler's consent naming the identity surface's own scope, `loyalty.read`) is marked
 *   an airline client, so that an airline live today keeps recognizing its travelers. Every other partner
 *   client is a plain partner client: /v1/identity/* and the recognition frame refuse it as unknown until
 *   the operator marks it (`npm run admin -- client mark-airline`; the README's upgrade note says to check
 *   which clients are airlines before deploying). No client gains a surface it did not already use.
 * - Agents keep their grants and the consent they hold. Their tokens stop opening the REST API at once (a
 *   token of no partner is refused with any API key), and a refresh token an agent was issued for the API
 *   answers `invalid_target` (an agent's tokens are for the tool endpoint only): the agent asks again for
 *   `/v1/mcp`. No row needs to change for that, so none is touched.
 * - Spending limits of clients that are not agents are deleted: a partner's client books over the REST API,
 *   where no limit was ever enforced, so such a limit showed a protection that did not exist.
 */
const PARTNER_CLIENTS = `SELECT id FROM oidc_models WHERE kind = 'Client' AND (payload::jsonb ->> 'partner_id') IS NOT NULL`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `UPDATE oidc_models SET payload = (payload::jsonb || '{"airline": true}'::jsonb)::text
       WHERE kind = 'Client' AND id IN (${PARTNER_CLIENTS})
         AND (id IN (SELECT client_id FROM loyalty_links)
           OR id IN (SELECT client_id FROM recognition_tokens)
           OR id IN (SELECT client_id FROM oidc_models WHERE kind = 'Grant' AND payload LIKE '%loyalty.read%'))`,
  );
  await knex.raw(
    `DELETE FROM agent_spending_limits
       WHERE client_id IN (${PARTNER_CLIENTS}) OR client_id IN (SELECT id FROM oidc_models WHERE kind = 'Client' AND (payload::jsonb ->> 'sandbox_demo') = 'true')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  // The deleted limits were never enforced; only the marks can be taken back.
  await knex.raw(`UPDATE oidc_models SET payload = (payload::jsonb - 'airline')::text WHERE kind = 'Client' AND (payload::jsonb -> 'airline') IS NOT NULL`);
}
