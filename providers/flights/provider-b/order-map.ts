/**
 * The order steps in provider_b's words and back: an OrderRequest becomes its `POST /air/orders` body
 * (passengers with their contact details and documents, services with seats as `ase_` services, one
 * balance payment for an instant order, our reference in `metadata`), and its orders and cancellations
 * become ProviderOrder and OrderCancellation.
 */
import type { OrderCancellation, OrderPassenger, OrderRequest, ProviderOrder } from '../../../core/flights/flight-provider.js';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../../core/money/money.js';
import type { WireCancellation, WireOrder, WireSeatMap } from './wire.js';

const TITLES = new Set(['mr', 'ms', 'mrs', 'miss', 'dr']);

export function orderBody(request: OrderRequest, seatServiceIds: string[]) {
  const infants = request.passengers.filter((passenger) => passenger.type === 'infant_without_seat');
  const adults = request.passengers.filter((passenger) => passenger.type === 'adult');
  return {
    data: {
      type: request.type,
      selected_offers: [String(request.raw.id)],
      passengers: request.passengers.map((passenger) => {
        // Each infant travels on an adult's lap: the airline wants to know on whose.
        const infant = infants[adults.indexOf(passenger)];
        return { ...passengerBody(passenger, request.contact), ...(infant ? { infant_passenger_id: infant.providerPassengerId } : {}) };
      }),
      services: [...request.services.map(({ id, quantity }) => ({ id, quantity })), ...seatServiceIds.map((id) => ({ id, quantity: 1 }))],
      // A hold is paid later, through POST /air/payments.
      payments: request.type === 'instant' ? [{ type: 'balance', amount: request.amount, currency: request.currency }] : [],
      metadata: { booking_reference: request.reference },
    },
  };
}

function passengerBody(passenger: OrderPassenger, contact: OrderRequest['contact']) {
  const title = passenger.title?.toLowerCase().replace(/\.$/, '');
  return {
    id: passenger.providerPassengerId,
    title: title && TITLES.has(title) ? title : passenger.gender === 'female' ? 'ms' : 'mr',
    given_name: [passenger.firstName, passenger.middleName].filter(Boolean).join(' '),
    family_name: passenger.lastName,
    gender: passenger.gender === 'female' ? 'f' : passenger.gender === 'male' ? 'm' : null,
    born_on: passenger.bornOn,
    // The airline reaches each passenger; without their own details, the booking's contact.
    email: passenger.email ?? contact.email,
    phone_number: passenger.phoneNumber ?? contact.phoneNumber,
    identity_documents: passenger.identityDocuments.map((document) => ({
      type: document.type,
      unique_identifier: document.uniqueIdentifier,
      issuing_country_code: document.issuingCountryCode,
      expires_on: document.expiresOn,
    })),
  };
}

/**
 * The `ase_` service of each chosen seat, from the seat maps; undefined names the first seat that is not
 * for sale to that passenger (taken, blocked or unknown).
 */
export function seatServicesFor(seats: OrderRequest['seats'], seatMaps: WireSeatMap[]): { ids: string[] } | { missing: string } {
  const ids: string[] = [];
  for (const seat of seats) {
    const elements = seatMaps
      .filter((seatMap) => seatMap.segment_id === seat.segmentId)
      .flatMap((seatMap) => seatMap.cabins.flatMap((cabin) => cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements))));
    const element = elements.find((item) => item.type === 'seat' && 'designator' in item && item.designator === seat.seatNumber);
    const services = (element && 'available_services' in element ? element.available_services : []) as { id: string; passenger_id: string }[];
    const service = services.find((item) => item.passenger_id === seat.providerPassengerId);
    if (!service) return { missing: seat.seatNumber };
    ids.push(service.id);
  }
  return { ids };
}

export function toProviderOrder(order: WireOrder): ProviderOrder {
  const currency = order.total_currency;
  const status = order.cancelled_at ? 'cancelled' : order.payment_status.awaiting_payment ? 'held' : 'confirmed';
  return {
    orderId: order.id,
    pnr: order.booking_reference,
    status,
    amount: toDecimalString(order.total_amount, currency, 'total_amount'),
    currency,
    tickets: order.documents
      .filter((document) => document.type === 'electronic_ticket')
      .flatMap((document) => document.passenger_ids.map((providerPassengerId) => ({ providerPassengerId, ticketNumber: document.unique_identifier }))),
    seats: order.services
      .filter((service) => service.type === 'seat' && service.metadata?.designator)
      .flatMap((service) =>
        service.segment_ids.flatMap((segmentId) =>
          service.passenger_ids.map((providerPassengerId) => ({ segmentId, providerPassengerId, seatNumber: service.metadata?.designator as string })),
        ),
      ),
    paymentRequiredBy: status === 'held' && order.payment_status.payment_required_by ? new Date(order.payment_status.payment_required_by).toISOString() : null,
  };
}

export function toCancellation(cancellation: WireCancellation): OrderCancellation {
  const currency = cancellation.refund_currency;
  const refunds = cancellation.refund_amount !== null && currency !== null && toMinorUnits(cancellation.refund_amount, currency) > 0n;
  return {
    orderId: cancellation.order_id,
    refundAmount: refunds ? toDecimalString(cancellation.refund_amount as string, currency as string, 'refund_amount') : null,
    refundCurrency: refunds ? currency : null,
    cancelledAt: new Date(cancellation.confirmed_at as string).toISOString(),
  };
}

/** `amount` with the difference between two totals of the offer added: the order's total at a new price. */
export function repriced(amount: string, before: string, after: string, currency: string): string {
  return fromMinorUnits(toMinorUnits(amount, currency) - toMinorUnits(before, currency) + toMinorUnits(after, currency), currency);
}
