/**
 * The one ordered list of migrations, for the embedded database and PostgreSQL alike. Listing them here
 * (instead of letting knex scan a folder) keeps them loadable from TypeScript sources and bundles alike.
 * Append only; never edit a migration that has landed.
 */
import type { Knex } from 'knex';
import * as foundation from './20261122000001-foundation.js';
import * as oidcModels from './20261122000002-oidc-models.js';
import * as users from './20261122000003-users.js';
import * as sandboxOutbox from './20261122000004-sandbox-outbox.js';
import * as signInCodes from './20261122000005-sign-in-codes.js';
import * as pairwiseIds from './20261122000006-pairwise-ids.js';
import * as smsSignIn from './20261122000007-sms-sign-in.js';
import * as oneGrantPerClient from './20261122000008-one-grant-per-client.js';
import * as offers from './20261122000009-offers.js';
import * as offerPassengers from './20261122000010-offer-passengers.js';
import * as offerPassengerDetails from './20261122000011-offer-passenger-details.js';
import * as flightSearches from './20261122000012-flight-searches.js';
import * as offerOwners from './20261122000013-offer-owners.js';
import * as savedPassengers from './20261122000014-saved-passengers.js';
import * as preferences from './20261122000015-preferences.js';
import * as profilePhotos from './20261122000016-profile-photos.js';
import * as contactChanges from './20261122000017-contact-changes.js';
import * as contactChangeRefusals from './20261122000018-contact-change-refusals.js';
import * as offerClaims from './20261123000019-offer-claims.js';
import * as signInNetworks from './20261123000020-sign-in-networks.js';
import * as cardVaultSandbox from './20261123000021-card-vault-sandbox.js';
import * as paymentProcessorSandbox from './20261123000022-payment-processor-sandbox.js';
import * as paymentMethods from './20261123000023-payment-methods.js';
import * as flightSandboxOrders from './20261123000024-flight-sandbox-orders.js';
import * as bookings from './20261123000025-bookings.js';
import * as purchaseConfirmations from './20261124000026-purchase-confirmations.js';
import * as identity from './20261124000027-identity.js';
import * as clientKinds from './20261128000028-client-kinds.js';
import * as publishableKeys from './20261128000029-publishable-keys.js';
import * as checkoutSessions from './20261128000030-checkout-sessions.js';
import * as hostedCheckout from './20261128000031-hosted-checkout.js';
import * as vaultSessionAncestors from './20261128000032-vault-session-ancestors.js';
import * as webhooks from './20261128000033-webhooks.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

export const migrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['20261122000001-foundation', foundation],
  ['20261122000002-oidc-models', oidcModels],
  ['20261122000003-users', users],
  ['20261122000004-sandbox-outbox', sandboxOutbox],
  ['20261122000005-sign-in-codes', signInCodes],
  ['20261122000006-pairwise-ids', pairwiseIds],
  ['20261122000007-sms-sign-in', smsSignIn],
  ['20261122000008-one-grant-per-client', oneGrantPerClient],
  ['20261122000009-offers', offers],
  ['20261122000010-offer-passengers', offerPassengers],
  ['20261122000011-offer-passenger-details', offerPassengerDetails],
  ['20261122000012-flight-searches', flightSearches],
  ['20261122000013-offer-owners', offerOwners],
  ['20261122000014-saved-passengers', savedPassengers],
  ['20261122000015-preferences', preferences],
  ['20261122000016-profile-photos', profilePhotos],
  ['20261122000017-contact-changes', contactChanges],
  ['20261122000018-contact-change-refusals', contactChangeRefusals],
  ['20261123000019-offer-claims', offerClaims],
  ['20261123000020-sign-in-networks', signInNetworks],
  ['20261123000021-card-vault-sandbox', cardVaultSandbox],
  ['20261123000022-payment-processor-sandbox', paymentProcessorSandbox],
  ['20261123000023-payment-methods', paymentMethods],
  ['20261123000024-flight-sandbox-orders', flightSandboxOrders],
  ['20261123000025-bookings', bookings],
  ['20261124000026-purchase-confirmations', purchaseConfirmations],
  ['20261124000027-identity', identity],
  ['20261128000028-client-kinds', clientKinds],
  ['20261128000029-publishable-keys', publishableKeys],
  ['20261128000030-checkout-sessions', checkoutSessions],
  ['20261128000031-hosted-checkout', hostedCheckout],
  ['20261128000032-vault-session-ancestors', vaultSessionAncestors],
  ['20261128000033-webhooks', webhooks],
];
