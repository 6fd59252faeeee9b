/**
 * A flight order as provider_a's sandbox keeps it (in flight_sandbox_orders, through SandboxOrders) and
 * answers it: Amadeus' flight-order, with the priced offer as booked (its `price.additionalServices` and
 * `grandTotal` include the chosen seats and bags), the record locator under `associatedRecords`, and
 * `tickets` once issued. `ticketingAgreement.dateTime` (when an unpaid hold is cancelled) and `cancellation`
 * (when and what a cancel refunded) are the sandbox's additions (invented): Amadeus forgets a deleted order.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { OrderedOffer, OrderRequest } from './sandbox-order-request.js';

export type OrderStatus = 'held' | 'issued' | 'cancelled';

export interface FlightOrderDocument {
  type: 'flight-order';
  id: string;
  associatedRecords: { reference: string; creationDateTime: string; originSystemCode: string; flightOfferId: string }[];
  flightOffers: OrderedOffer[];
  travelers: OrderRequest['data']['travelers'];
  contacts?: unknown;
  ticketingAgreement: { option: 'CONFIRM' } | { option: 'DELAY_TO_CANCEL'; delay: string; dateTime: string };
  formOfPayments?: unknown[];
  tickets?: { documentType: 'ETICKET'; documentNumber: string; documentStatus: 'ISSUED' | 'REFUNDED' | 'VOID'; travelerId: string; segmentIds: string[] }[];
  cancellation?: { dateTime: string; refund: { amount: string; currencyCode: string } | null };
}

/** An opaque order id in the look of Amadeus' ("eJzTd9f3NjIJdzUGAAp%2fAiY"), URL-safe. */
export function newOrderId(): string {
  return `eJz${randomBytes(15).toString('base64url')}`;
}

/** A six-character record locator (PNR), letters and digits without the easily confused 0/O and 1/I. */
export function newRecordLocator(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(randomBytes(6), (byte) => alphabet[byte % alphabet.length]).join('');
}

/** One e-ticket per traveler, numbered after the validating airline's three-digit prefix. */
export function issueTickets(order: FlightOrderDocument): NonNullable<FlightOrderDocument['tickets']> {
  const offer = order.flightOffers[0] as OrderedOffer;
  const segmentIds = offer.itineraries.flatMap((itinerary) => itinerary.segments.map((segment) => segment.id));
  const airline = offer.validatingAirlineCodes?.[0] ?? 'YY';
  return offer.travelerPricings.map((traveler) => {
    const digits = BigInt(`0x${createHash('sha256').update(`${order.id}:${traveler.travelerId}`).digest('hex').slice(0, 12)}`) % 10_000_000_000n;
    return { documentType: 'ETICKET', documentNumber: `${AIRLINE_PREFIXES[airline] ?? '999'}${digits.toString().padStart(10, '0')}`, documentStatus: 'ISSUED', travelerId: traveler.travelerId, segmentIds };
  });
}

const AIRLINE_PREFIXES: Record<string, string> = { BA: '125', EK: '176', NH: '205', AF: '057', KU: '229', VS: '932' };

/** Amadeus' datetimes are local without offset; the sandbox's clock is UTC. */
export function localDateTime(date: Date): string {
  return date.toISOString().slice(0, 19);
}
