/**
 * Examples of the offer schemas for the API reference: one provider_b offer, London Heathrow to New York
 * JFK on BA117, as a partner hands it over (native) and as the API answers it (normalized). They are too
 * long to sit inline in offer-schemas.ts, which attaches them; the document generator checks each one
 * against its schema.
 */

const OFFER_ID = '8d3f6b2a-91c4-4e7d-b5a8-0f2c6e9d1b47';
const PASSENGER = 'pas_0000B2kQ7cRfX9pLmN4sTv';
const SEGMENT = 'seg_0000B2kQ7cRfX9pLmN4sTx';

const heathrow = { iata_code: 'LHR', name: 'Heathrow Airport', city_name: 'London' };
const kennedy = { iata_code: 'JFK', name: 'John F. Kennedy International Airport', city_name: 'New York' };
const britishAirways = { iata_code: 'BA', name: 'British Airways' };
const changeForAFee = { allowed: true, penalty_amount: '60.00', penalty_currency: 'GBP' };
const noRefund = { allowed: false, penalty_amount: null, penalty_currency: null };
const bags = [
  { type: 'checked', quantity: 1 },
  { type: 'carry_on', quantity: 1 },
];

/** provider_b's own offer format, verbatim: what createProviderOffer takes. */
export const NATIVE_OFFER_EXAMPLE = {
  id: 'off_0000B2kQ7cRfX9pLmN4sTu',
  live_mode: false,
  created_at: '2027-02-18T09:00:00.000000Z',
  updated_at: '2027-02-18T09:00:00.000000Z',
  expires_at: '2027-02-18T09:30:00.000000Z',
  total_amount: '512.46',
  total_currency: 'GBP',
  base_amount: '298.00',
  base_currency: 'GBP',
  tax_amount: '214.46',
  tax_currency: 'GBP',
  total_emissions_kg: '431',
  passenger_identity_documents_required: true,
  supported_passenger_identity_document_types: ['passport'],
  supported_loyalty_programmes: ['BA', 'AA', 'IB'],
  owner: { ...britishAirways, id: 'arl_00009VME7DAGiJjwomhv32' },
  passengers: [{ id: PASSENGER, type: 'adult', age: null, loyalty_programme_accounts: [] }],
  slices: [
    {
      id: 'sli_0000B2kQ7cRfX9pLmN4sTw',
      origin: { ...heathrow, type: 'airport' },
      destination: { ...kennedy, type: 'airport' },
      duration: 'PT07H55M',
      fare_brand_name: 'Economy Standard',
      conditions: { change_before_departure: changeForAFee, advance_seat_selection: true, priority_boarding: false, priority_check_in: false },
      segments: [
        {
          id: SEGMENT,
          origin: heathrow,
          destination: kennedy,
          origin_terminal: '5',
          destination_terminal: '8',
          departing_at: '2027-03-12T08:25:00',
          arriving_at: '2027-03-12T11:20:00',
          duration: 'PT07H55M',
          marketing_carrier: britishAirways,
          marketing_carrier_flight_number: '117',
          operating_carrier: britishAirways,
          operating_carrier_flight_number: '117',
          aircraft: { iata_code: '77W', name: 'Boeing 777-300ER' },
          passengers: [
            { passenger_id: PASSENGER, cabin_class: 'economy', cabin_class_marketing_name: 'Economy', fare_basis_code: 'OLNNC0S1', baggages: bags },
          ],
        },
      ],
    },
  ],
  conditions: { refund_before_departure: noRefund, change_before_departure: changeForAFee },
  payment_requirements: { requires_instant_payment: false, payment_required_by: '2027-02-20T09:00:00Z', price_guarantee_expires_at: '2027-02-19T09:00:00Z' },
  available_services: [
    {
      id: 'ase_0000B2kQ7cRfX9pLmN4sTy',
      type: 'baggage',
      total_amount: '45.00',
      total_currency: 'GBP',
      maximum_quantity: 2,
      passenger_ids: [PASSENGER],
      segment_ids: [SEGMENT],
      metadata: { type: 'checked', maximum_weight_kg: 23, maximum_length_cm: 90, maximum_depth_cm: 30, maximum_height_cm: 75 },
    },
  ],
  private_fares: [],
};

export const AVAILABLE_SERVICE_EXAMPLE = {
  id: 'ase_0000B2kQ7cRfX9pLmN4sTy',
  type: 'baggage',
  name: 'Checked bag',
  total_amount: '45.00',
  total_currency: 'GBP',
  segment_ids: [SEGMENT],
  passenger_ids: [PASSENGER],
  maximum_quantity: 2,
  weight: 23,
  weight_unit: 'kg',
  dimensions: { length: 90, width: 30, height: 75 },
};

export const FARE_CLASS_METADATA_EXAMPLE = {
  seat_selection_allowed: true,
  seat_selection_fee: null,
  seat_selection_currency: null,
  extra_legroom: false,
  carry_on_bags: 1,
  checked_bags: 1,
  checked_bags_paid: false,
  changes_allowed: true,
  change_penalty_amount: '60.00',
  change_penalty_currency: 'GBP',
  refunds_allowed: false,
  refund_penalty_amount: null,
  refund_penalty_currency: null,
  boarding_priority: 'standard',
};

/** The same offer as getProviderOffer answers it (provider_b's normalizer made it from the native one). */
export const OFFER_EXAMPLE = {
  id: OFFER_ID,
  provider_id: 'provider_b',
  created_at: '2027-02-18T09:00:04.512Z',
  updated_at: '2027-02-18T09:00:04.512Z',
  expires_at: '2027-02-18T09:30:00.000Z',
  total_amount: '512.46',
  total_currency: 'GBP',
  base_amount: '298.00',
  base_currency: 'GBP',
  tax_amount: '214.46',
  tax_currency: 'GBP',
  total_emissions_kg: '431',
  passenger_identity_documents_required: true,
  supported_passenger_identity_document_types: ['passport'],
  supported_loyalty_programmes: ['BA', 'AA', 'IB'],
  owner: britishAirways,
  passengers: [{ id: PASSENGER, type: 'adult', age: null }],
  slices: [
    {
      id: 'sli_0000B2kQ7cRfX9pLmN4sTw',
      origin: heathrow,
      destination: kennedy,
      duration: 'PT07H55M',
      fare_brand_name: 'Economy Standard',
      conditions: { change_before_departure: changeForAFee, advance_seat_selection: true, priority_boarding: false, priority_check_in: false },
      segments: [
        {
          id: SEGMENT,
          origin: { ...heathrow, terminal: '5' },
          destination: { ...kennedy, terminal: '8' },
          departing_at: '2027-03-12T08:25:00',
          arriving_at: '2027-03-12T11:20:00',
          duration: 'PT07H55M',
          marketing_carrier: britishAirways,
          marketing_carrier_flight_number: '117',
          operating_carrier: britishAirways,
          operating_carrier_flight_number: '117',
          aircraft: { iata_code: '77W', name: 'Boeing 777-300ER' },
          passengers: [
            {
              passenger_id: PASSENGER,
              cabin_class: 'economy',
              cabin_class_marketing_name: 'Economy',
              fare_basis_code: 'OLNNC0S1',
              fare_brand_name: 'Economy Standard',
              baggages: bags,
            },
          ],
        },
      ],
    },
  ],
  conditions: { refund_before_departure: noRefund, change_before_departure: changeForAFee },
  payment_requirements: {
    requires_instant_payment: false,
    payment_required_by: '2027-02-20T09:00:00.000Z',
    price_guarantee_expires_at: '2027-02-19T09:00:00.000Z',
  },
  available_services: [AVAILABLE_SERVICE_EXAMPLE],
  fare_class_metadata: FARE_CLASS_METADATA_EXAMPLE,
  raw_offer: NATIVE_OFFER_EXAMPLE,
};

export const PRICING_RESULT_EXAMPLE = {
  offer: { ...OFFER_EXAMPLE, updated_at: '2027-02-18T09:12:31.087Z' },
  price_changed: false,
  previous_total_amount: '512.46',
};

const seat = (seatNumber: string, seatType: string, taken: boolean) => ({
  seat_number: seatNumber,
  row: seatNumber.slice(0, -1),
  column: seatNumber.slice(-1),
  is_available: !taken,
  is_occupied: taken,
  is_blocked: false,
  seat_type: seatType,
  disclosures: [],
});

export const SEAT_MAP_EXAMPLE = {
  offer_id: OFFER_ID,
  segment_id: SEGMENT,
  seat_map: { '32A': seat('32A', 'window', false), '32B': seat('32B', 'middle', true), '32C': seat('32C', 'aisle', false) },
  pricing: { '32A': { amount: 28, currency: 'GBP' }, '32C': { amount: 28, currency: 'GBP' } },
};

export const OFFER_PASSENGER_EXAMPLE = {
  id: PASSENGER,
  type: 'adult',
  age: null,
  given_name: 'Amelia',
  family_name: 'Hart',
  loyalty_programme_accounts: [{ airline_iata_code: 'BA', account_number: '41286539' }],
};

export const PASSENGER_UPDATE_EXAMPLE = {
  passenger_id: PASSENGER,
  first_name: 'Amelia',
  last_name: 'Hart',
  date_of_birth: '1988-04-17',
  gender: 'female',
  loyalty_programme_accounts: [{ airline_iata_code: 'BA', account_number: '41286539' }],
  identity_documents: [{ type: 'passport', unique_identifier: '925076473', issuing_country_code: 'GB', expires_on: '2031-08-14' }],
};

export const OFFER_PASSENGER_MAPPING_EXAMPLE = { user_passenger_id: 'b7e3a1c4-58d2-4f6b-a0c9-3d1e7f2b5a68', provider_passenger_id: PASSENGER };
