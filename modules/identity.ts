/**
 * Airline identity recognition: the identity API (resolve, loyalty links) over the pairwise ids,
 * recognition tokens and consents that the sign-in module keeps (which also sweeps spent recognition
 * tokens). The Basic client credentials check of its routes (built by the sign-in module, which holds the
 * client store) is handed to the REST door by the root.
 */
import type { StandingConsents } from '../core/identity/contracts.js';
import type { RecognitionTokens } from '../core/identity/recognition-tokens.js';
import { IdentityService } from '../core/identity/service.js';
import type { PairwiseIds } from '../core/users/pairwise-ids.js';
import { identityRoutes } from '../rest/routes/identity.js';
import type { Capability, SharedPieces } from './capability.js';

export function identityModule(
  shared: SharedPieces,
  signIn: { consents: StandingConsents; pairwiseIds: PairwiseIds; recognitionTokens: RecognitionTokens },
): Capability & { identity: IdentityService } {
  const { db, clock } = shared;
  const identity = new IdentityService({
    db: db.knex,
    clock,
    secrets: shared.secrets,
    pairwiseIds: signIn.pairwiseIds,
    recognitionTokens: signIn.recognitionTokens,
    consents: signIn.consents,
  });
  return {
    identity,
    routes: identityRoutes({ identity }),
  };
}
