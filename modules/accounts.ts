/**
 * The traveler's account over REST: profile and photo, contact changes, saved passengers and preferences.
 */
import { ContactChanges } from '../core/users/contact-change.js';
import { PassengerService } from '../core/passengers/service.js';
import { PreferencesService } from '../core/preferences/service.js';
import { ProfilePhotos } from '../core/users/profile-photos.js';
import { contactChangeRoutes } from '../rest/routes/contact-change.js';
import { passengerRoutes } from '../rest/routes/passengers.js';
import { preferenceRoutes } from '../rest/routes/preferences.js';
import { userRoutes } from '../rest/routes/users.js';
import type { Capability, SharedPieces } from './capability.js';

export function accountsModule(shared: SharedPieces): Capability {
  const { config, db, clock, users } = shared;
  const photos = new ProfilePhotos({ db: db.knex, clock, photoUrl: (userId) => `${config.baseUrl}/v1/users/${userId}/profile-photo` });
  // Codes of contact changes are stored as an HMAC under the newest cookie key.
  const contactChanges = new ContactChanges({ db: db.knex, mailer: shared.mailer, sms: shared.sms, clock, hashKey: shared.keys.cookieKeys[0] as string });
  return {
    routes: [
      ...userRoutes({ users, photos }),
      ...passengerRoutes({ passengers: new PassengerService({ db: db.knex, clock, secrets: shared.secrets }), users }),
      ...preferenceRoutes({ preferences: new PreferencesService({ db: db.knex, clock }), users }),
      ...contactChangeRoutes({ changes: contactChanges, users }),
    ],
    sweepers: [() => contactChanges.sweepExpired()],
  };
}
