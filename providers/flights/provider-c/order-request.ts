/**
 * Our order request → provider_c's OrderCreateRQ (NDC as JSON): the priced offer's items for their
 * passengers, chosen seats as items of SeatAvailabilityRS's à la carte offer (each seat points to the item
 * of its price band), chosen services as à la carte items of the offer, the passengers and the contact.
 * No payment: NDC holds first, and OrderChange pays. The reference is the message's CorrelationID.
 */
import { ProviderRejectedError } from '../../../core/errors.js';
import type { OrderPassenger, OrderRequest } from '../../../core/flights/flight-provider.js';
import type { WireOffer, WireSeatAvailability } from './wire.js';

const CONTACT_ID = 'CONTACT_1';
const GENDER_CODES = { male: 'M', female: 'F' } as const;

export function orderCreateRequest(request: OrderRequest, offer: WireOffer, seatOffer: WireSeatAvailability | undefined) {
  const everyone = offer.DataLists.PaxList.map((pax) => pax.PaxID);
  const selected = [
    {
      OfferRefID: offer.OfferID,
      OwnerCode: offer.OwnerCode,
      SelectedOfferItem: [
        ...offer.OfferItem.map((item) => ({ OfferItemRefID: item.OfferItemID, PaxRefID: item.FareDetail.PaxRefID })),
        ...request.services.map((service) => ({ OfferItemRefID: service.id, PaxRefID: everyone, SelectedALaCarteOfferItem: { Qty: service.quantity } })),
      ],
    },
    ...(seatOffer && request.seats.length > 0
      ? [{ OfferRefID: seatOffer.ALaCarteOffer.OfferID, OwnerCode: offer.OwnerCode, SelectedOfferItem: request.seats.map((seat) => seatItem(seat, seatOffer)) }]
      : []),
  ];
  const types = new Map(offer.DataLists.PaxList.map((pax) => [pax.PaxID, pax.PTC]));
  const own = request.passengers.filter((passenger) => passenger.email || passenger.phoneNumber);
  return {
    PayloadAttributes: { CorrelationID: request.reference },
    PricedOffer: request.raw,
    CreateOrder: { AcceptSelectedQuotedOfferList: { SelectedPricedOffer: selected } },
    DataLists: {
      PaxList: request.passengers.map((passenger) => ({
        PaxID: passenger.providerPassengerId,
        PTC: types.get(passenger.providerPassengerId),
        Individual: individual(passenger),
        ...identityDocs(passenger),
        ContactInfoRefID: own.includes(passenger) ? contactIdOf(passenger) : CONTACT_ID,
      })),
      ContactInfoList: [
        {
          ContactInfoID: CONTACT_ID,
          Individual: { GivenName: request.contact.firstName, Surname: request.contact.lastName, ...(request.contact.title ? { TitleName: request.contact.title } : {}) },
          EmailAddress: { EmailAddressText: request.contact.email },
          Phone: { PhoneNumber: request.contact.phoneNumber },
        },
        ...own.map((passenger) => ({
          ContactInfoID: contactIdOf(passenger),
          ...(passenger.email ? { EmailAddress: { EmailAddressText: passenger.email } } : {}),
          ...(passenger.phoneNumber ? { Phone: { PhoneNumber: passenger.phoneNumber } } : {}),
        })),
      ],
    },
  };
}

const contactIdOf = (passenger: OrderPassenger) => `CONTACT_${passenger.providerPassengerId}`;

function individual(passenger: OrderPassenger) {
  return {
    ...(passenger.title ? { TitleName: passenger.title } : {}),
    GivenName: passenger.firstName,
    ...(passenger.middleName ? { MiddleName: passenger.middleName } : {}),
    Surname: passenger.lastName,
    Birthdate: passenger.bornOn,
    ...(passenger.gender ? { GenderCode: GENDER_CODES[passenger.gender] } : {}),
  };
}

/** Passports go as NDC IdentityDoc (type PT); the airline takes no other document with the order. */
function identityDocs(passenger: OrderPassenger) {
  const passports = passenger.identityDocuments.filter((document) => document.type === 'passport');
  if (passports.length === 0) return {};
  return {
    IdentityDoc: passports.map((document) => ({
      IdentityDocTypeCode: 'PT',
      IdentityDocID: document.uniqueIdentifier,
      IssuingCountryCode: document.issuingCountryCode,
      ExpiryDate: document.expiresOn,
    })),
  };
}

/** The seat as an item of the seat offer: the price band its map points to; a seat not free is refused here. */
function seatItem(seat: OrderRequest['seats'][number], seatOffer: WireSeatAvailability) {
  const [, row, column] = /^(\d+)([A-Z])$/.exec(seat.seatNumber) ?? [];
  const found = seatOffer.SeatMap.find((map) => map.PaxSegmentRefID === seat.segmentId)
    ?.CabinCompartment.flatMap((cabin) => cabin.SeatRow)
    .find((item) => item.RowNumber === Number(row))
    ?.Seat.find((item) => item.ColumnID === column);
  if (found?.OccupationStatusCode !== 'F' || !found.OfferItemRefID) {
    throw new ProviderRejectedError(
      `Seat ${seat.seatNumber} is not for sale on this flight (taken, blocked or not a seat): read the seat maps again and choose another.`,
      'seat_unavailable',
      `provider_c: seat ${seat.seatNumber} not free on ${seat.segmentId}`,
    );
  }
  return {
    OfferItemRefID: found.OfferItemRefID,
    PaxRefID: [seat.providerPassengerId],
    SelectedALaCarteOfferItem: { Qty: 1 },
    SelectedSeat: { PaxSegmentRefID: seat.segmentId, SeatRowNumber: Number(row), ColumnID: column },
  };
}
