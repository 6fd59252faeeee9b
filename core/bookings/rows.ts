/** Booking rows as the database gives them back: the booking, its passengers and its seats. */
import type { BookingStatus } from './schemas.js';

export interface BookingRow {
  id: string;
  user_id: string;
  partner_id: string | null;
  client_id: string | null;
  idempotency_key: string;
  request_digest: string;
  provider_id: string;
  offer_id: string | null;
  provider_offer_id: string | null;
  offer: Record<string, unknown>;
  order_type: 'instant' | 'hold';
  status: BookingStatus;
  provider_status: 'held' | 'confirmed' | 'cancelled' | null;
  provider_order_id: string | null;
  retried_order_id: string | null;
  airline_pnr: string | null;
  payment_required_by: Date | null;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  vault_token: string | null;
  payment_intent_id: string | null;
  amount_minor: number;
  currency: string;
  attempt: number;
  confirm_requested: boolean;
  failure: StoredFailure | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  metadata: Record<string, string>;
  contact: { email: string; phone_number: string; first_name: string; last_name: string; title?: string };
  services: { id: string; quantity: number }[];
  trip_type: string;
  origin_city: string | null;
  origin_iata_code: string;
  destination_city: string | null;
  destination_iata_code: string;
  /** Local time at the airport, as PostgreSQL writes a timestamp without time zone. */
  departure_date: string | null;
  return_date: string | null;
  airline_name: string | null;
  airline_iata_code: string;
  airline_logo_url: string;
  adult_count: number;
  child_count: number;
  infant_count: number;
  refund_minor: number | null;
  refund_currency: string | null;
  cancellation_reason: string | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A failure as it was answered, to answer a repeat of the request the same way. */
export interface StoredFailure {
  kind: string;
  code: string;
  message: string;
  details?: string;
  fields?: Record<string, unknown>;
  priceChange?: { orderId: string | null; previousTotalAmount: string; newTotalAmount: string; currency: string };
}

export interface BookingPassengerRow {
  id: string;
  booking_id: string;
  user_passenger_id: string | null;
  provider_passenger_id: string;
  traveler_type: string;
  title: string | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string;
  gender: string | null;
  email: string | null;
  phone_number: string | null;
  nationality: string | null;
  documents_sealed: string | null;
  ticket_number: string | null;
  fare_basis_code: string | null;
  position: number;
  created_at: Date;
  updated_at: Date;
}

export interface SeatSelectionRow {
  id: string;
  booking_id: string;
  booking_passenger_id: string;
  user_passenger_id: string | null;
  segment_id: string;
  seat_number: string;
  seat_row: string | null;
  seat_column: string | null;
  price: string | null;
  currency: string | null;
  created_at: Date;
  updated_at: Date;
}
