/**
 * Codes of requests that are well formed but refused by a rule: the card's bank (402), the provider's
 * capabilities or the airline (422), or what the traveler's saved data allows (422).
 */
import type { ErrorGroup } from './entry.js';

export const REFUSAL_ERRORS: readonly ErrorGroup[] = [
  {
    title: 'Card declined',
    summary: 'The card was refused, so nothing was bought: the traveler chooses what to do.',
    entries: {
      card_declined: {
        status: 402,
        title: 'The card was declined',
        help: 'The card’s bank or the payment processor refused the card; `details` says why (`insufficient_funds`, `expired_card`, `incorrect_cvc`, `authentication_required`, `generic_decline`, ...). Nothing was charged. Ask the traveler for another card, or to fix the one they chose.',
        retryable: false,
        needsUser: true,
      },
    },
  },
  {
    title: 'Cannot be done with this offer or card',
    summary: 'The provider cannot do this, the airline refused it, or the traveler’s saved data does not allow it: change the request as the message says.',
    entries: {
      offer_no_longer_available: {
        status: 422,
        title: 'The airline no longer sells this offer',
        help: 'The offer is sold out or withdrawn (`details` names the provider’s reason): search again for another one.',
        retryable: false,
        needsUser: false,
      },
      invalid_passenger: {
        status: 422,
        title: 'The airline refused a passenger’s details',
        help: 'The airline refused a passenger as given (`details` says which rule, such as a name, a date of birth or a document): correct the passenger’s details, asking the traveler where needed, then book again.',
        retryable: false,
        needsUser: true,
      },
      passenger_details_required: {
        status: 422,
        title: 'Passengers are missing',
        help: 'No saved passenger is matched to one or more of the offer’s passengers. Ask the traveler who travels and send every passenger of the offer in `passengers` (first name, last name, date of birth, gender, and a passport where the offer needs one), or have the partner match saved passengers to the offer (`saveOfferPassengers`).',
        retryable: false,
        needsUser: true,
      },
      contact_required: {
        status: 422,
        title: 'No contact for the airline',
        help: 'The traveler’s profile has no e-mail address or phone number for the airline to reach them: ask the traveler and send `contact` (email, phone_number in E.164, first_name, last_name).',
        retryable: false,
        needsUser: true,
      },
      seat_unavailable: {
        status: 422,
        title: 'A chosen seat is not for sale',
        help: 'The seat is taken, blocked or not a seat, or two were chosen for one passenger: read the seat maps again and choose another.',
        retryable: false,
        needsUser: false,
      },
      service_not_available: {
        status: 422,
        title: 'A chosen seat or extra is not for sale',
        help: 'A seat or extra (a bag, say) is no longer sold to that passenger, or not that many times: price the offer again and choose from its seat maps and `available_services`.',
        retryable: false,
        needsUser: false,
      },
      service_unavailable: {
        status: 422,
        title: 'A chosen service is not sold with this offer',
        help: 'The airline does not sell a chosen seat, bag or other service with this offer: choose again from its seat maps and `available_services`, or book without it.',
        retryable: false,
        needsUser: false,
      },
      seat_selection_not_supported: {
        status: 422,
        title: 'This provider does not sell seats',
        help: 'The provider’s capabilities say `supports_seat_selection: false`: book without seat selections.',
        retryable: false,
        needsUser: false,
      },
      bag_selection_not_supported: {
        status: 422,
        title: 'This provider does not sell bags',
        help: 'The provider’s capabilities say `supports_bag_selection: false`: book with the bags the fare includes.',
        retryable: false,
        needsUser: false,
      },
      services_not_supported: {
        status: 422,
        title: 'This provider does not sell extras with the order',
        help: 'The provider’s capabilities say `supports_bag_selection: false`: book without `services`.',
        retryable: false,
        needsUser: false,
      },
      passenger_update_not_supported: {
        status: 422,
        title: 'Passenger details go with the booking',
        help: 'This provider takes passenger details only with the booking (`supports_offer_passenger_update: false`): send them when you book.',
        retryable: false,
        needsUser: false,
      },
      hold_not_supported: {
        status: 422,
        title: 'This provider does not hold orders',
        help: 'The provider’s capabilities say `supports_hold_booking: false`: book with `order_type` instant.',
        retryable: false,
        needsUser: false,
      },
      hold_not_available: {
        status: 422,
        title: 'The airline does not hold this offer',
        help: 'The airline requires this offer to be paid at once: book it with `order_type` instant.',
        retryable: false,
        needsUser: false,
      },
      hold_expired: {
        status: 422,
        title: 'The hold lapsed',
        help: 'The held booking passed its payment deadline before it was confirmed: book the offer again.',
        retryable: false,
        needsUser: false,
      },
      payment_amount_mismatch: {
        status: 422,
        title: 'The airline refused the amount',
        help: 'The airline’s total for the offer and its extras is not the amount paid: price the offer again and book at its total.',
        retryable: false,
        needsUser: false,
      },
      payment_method_required: {
        status: 422,
        title: 'No card chosen',
        help: 'The traveler has no default payment method: name one with `payment_method_id` (list them with `list_payment_methods`), asking the traveler which card to use, or have the traveler save a card first.',
        retryable: false,
        needsUser: true,
      },
      payment_method_not_chargeable: {
        status: 422,
        title: 'The card cannot be charged here',
        help: 'This saved card (a legacy card or a wallet) cannot be charged by the service: the traveler adds the card again through the hosted card fields, or chooses another.',
        retryable: false,
        needsUser: true,
      },
      payment_method_expired: {
        status: 422,
        title: 'The card has expired',
        help: 'The saved card is past its expiry date: the traveler chooses another card or updates its expiry.',
        retryable: false,
        needsUser: true,
      },
      card_brand_not_accepted: {
        status: 422,
        title: 'The card’s network is not accepted',
        help: 'Only Visa, Mastercard, American Express and Discover cards are accepted: the traveler uses one of those.',
        retryable: false,
        needsUser: true,
      },
      card_expiry_not_accepted: {
        status: 422,
        title: 'The card’s expiry date cannot be saved',
        help: 'Expiry years from 2024 to 2050 only: the traveler uses another card.',
        retryable: false,
        needsUser: true,
      },
      legacy_payment_method: {
        status: 422,
        title: 'A card from the previous processor',
        help: 'This card was carried over from our previous payment processor and has no cardholder name or billing ZIP to change: change its expiry or default flag only, or have the traveler add the card again through the hosted card fields.',
        retryable: false,
        needsUser: false,
      },
    },
  },
];
