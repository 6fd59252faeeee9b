import { OfferPassengerDetails, PassengerUpdateRequest } from '../../core/flights/offer-schemas.js';
import { defineTool } from '../tool.js';
import { OfferReference } from './offer-shared.js';

const UpdatePassengerInput = OfferReference.extend(PassengerUpdateRequest.shape).extend({
  passenger_id: PassengerUpdateRequest.shape.passenger_id.unwrap().describe('The passenger’s id inside the offer (its passengers[].id).'),
});

export const updatePassenger = defineTool({
  name: 'update_passenger',
  title: 'Give a passenger’s details',
  description:
    'Gives the provider a passenger’s name and other details before booking, for providers that take them (their capabilities say ' +
    'supports_offer_passenger_update); the others take them with the booking and answer passenger_update_not_supported. Names as ' +
    'printed in the passport. Fields left out are kept as they were. Needs the bookings.write scope.',
  input: UpdatePassengerInput,
  output: OfferPassengerDetails,
  scopes: ['bookings.write'],
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: ({ provider_id, offer_id, ...update }, { owner, services }) => services.offers.updatePassenger(owner, provider_id, offer_id, update.passenger_id, update),
});
