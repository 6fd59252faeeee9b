/**
 * provider_b's orders as its sandbox keeps them (Duffel-like `ord_` orders, with their `ore_`
 * cancellation), and the changes of their life: placed, paid, lapsed, cancelled. Pure: the routes store
 * what these return through SandboxOrders.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { fromMinorUnits, toMinorUnits } from '../../../core/money/money.js';
import type { NativeOffer } from './sandbox-catalogue.js';

export type OrderStatus = 'held' | 'confirmed' | 'cancelled';

export interface NativeOrderService {
  id: string;
  type: string;
  quantity: number;
  total_amount: string;
  total_currency: string;
  passenger_ids: string[];
  segment_ids: string[];
  metadata: Record<string, unknown>;
}

export interface NativeOrder {
  id: string;
  type: 'instant' | 'hold';
  live_mode: false;
  created_at: string;
  booking_reference: string;
  metadata: Record<string, string>;
  total_amount: string;
  total_currency: string;
  base_amount: string | null;
  tax_amount: string | null;
  owner: unknown;
  slices: unknown[];
  passengers: Record<string, unknown>[];
  services: NativeOrderService[];
  conditions: NativeOffer['conditions'];
  payment_status: { awaiting_payment: boolean; payment_required_by: string | null; price_guarantee_expires_at: string | null; paid_at: string | null };
  documents: { type: 'electronic_ticket'; unique_identifier: string; passenger_ids: string[] }[];
  available_actions: string[];
  cancelled_at: string | null;
}

export interface NativeCancellation {
  id: string;
  order_id: string;
  live_mode: false;
  created_at: string;
  refund_amount: string;
  refund_currency: string;
  refund_to: 'balance';
  expires_at: string;
  confirmed_at: string | null;
}

/** What the sandbox stores per order: the order as served, and what it needs to judge later requests. */
export interface StoredOrder {
  order: NativeOrder;
  offerId: string;
  /** The total at the price the offer was served at (with services): a payment of it means "the old price". */
  servedTotal: string;
  cancellation: NativeCancellation | null;
}

const CANCELLATION_QUOTE_MS = 15 * 60 * 1000;

/** Duffel-style ids: a prefix, then 22 characters. */
const newId = (prefix: string) => `${prefix}_0000${randomBytes(14).toString('base64url').slice(0, 18)}`;
const bookingReference = () => Array.from({ length: 6 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[randomInt(32)]).join('');
const ticketNumber = (airlinePrefix: string) => `${airlinePrefix}${String(randomInt(10 ** 9)).padStart(10, '0')}`;

export function placeOrder(input: {
  offer: NativeOffer;
  type: 'instant' | 'hold';
  passengers: Record<string, unknown>[];
  services: NativeOrderService[];
  metadata: Record<string, string>;
  total: string;
  servedTotal: string;
  now: Date;
}): StoredOrder {
  const { offer, now } = input;
  const hold = input.type === 'hold';
  const order: NativeOrder = {
    id: newId('ord'),
    type: input.type,
    live_mode: false,
    created_at: now.toISOString(),
    booking_reference: bookingReference(),
    metadata: input.metadata,
    total_amount: input.total,
    total_currency: offer.total_currency,
    base_amount: offer.base_amount ?? null,
    tax_amount: (offer.tax_amount as string | null | undefined) ?? null,
    owner: offer.owner,
    slices: offer.slices,
    passengers: input.passengers,
    services: input.services,
    conditions: offer.conditions,
    payment_status: {
      awaiting_payment: hold,
      payment_required_by: hold ? (offer.payment_requirements.payment_required_by ?? null) : null,
      price_guarantee_expires_at: hold ? (offer.payment_requirements.price_guarantee_expires_at ?? null) : null,
      paid_at: hold ? null : now.toISOString(),
    },
    documents: [],
    available_actions: hold ? ['cancel', 'update'] : ['cancel', 'change'],
    cancelled_at: null,
  };
  return { order: hold ? order : ticketed(order, now), offerId: offer.id, servedTotal: input.servedTotal, cancellation: null };
}

/** Paid: tickets issued, one electronic ticket per passenger. */
export function ticketed(order: NativeOrder, now: Date): NativeOrder {
  const airline = (order.owner as { iata_code?: string } | null)?.iata_code === 'BA' ? '125' : '999';
  return {
    ...order,
    payment_status: { ...order.payment_status, awaiting_payment: false, payment_required_by: null, price_guarantee_expires_at: null, paid_at: now.toISOString() },
    documents: order.passengers.map((passenger) => ({ type: 'electronic_ticket', unique_identifier: ticketNumber(airline), passenger_ids: [String(passenger.id)] })),
    available_actions: ['cancel', 'change'],
  };
}

export function statusOf(order: NativeOrder): OrderStatus {
  if (order.cancelled_at) return 'cancelled';
  return order.payment_status.awaiting_payment ? 'held' : 'confirmed';
}

/** A hold not paid by its payment_required_by is cancelled by the airline then, refunding nothing. */
export function isOverdue(stored: StoredOrder, now: Date): boolean {
  const deadline = stored.order.payment_status.payment_required_by;
  return statusOf(stored.order) === 'held' && deadline !== null && Date.parse(deadline) <= now.getTime();
}

export function lapsed(stored: StoredOrder): StoredOrder {
  const at = stored.order.payment_status.payment_required_by as string;
  const cancellation = { ...quote(stored, new Date(at)), confirmed_at: at };
  return { ...stored, order: { ...stored.order, cancelled_at: at, available_actions: [] }, cancellation };
}

/** The cancellation offered now: a fresh quote, valid for 15 minutes. */
export function quote(stored: StoredOrder, now: Date): NativeCancellation {
  const { order } = stored;
  return {
    id: cancellationIdOf(order.id),
    order_id: order.id,
    live_mode: false,
    created_at: now.toISOString(),
    refund_amount: refundOf(order),
    refund_currency: order.total_currency,
    refund_to: 'balance',
    expires_at: new Date(now.getTime() + CANCELLATION_QUOTE_MS).toISOString(),
    confirmed_at: null,
  };
}

export function cancelled(stored: StoredOrder, now: Date): StoredOrder {
  const cancellation = { ...(stored.cancellation as NativeCancellation), confirmed_at: now.toISOString() };
  return { ...stored, order: { ...stored.order, cancelled_at: now.toISOString(), available_actions: [] }, cancellation };
}

/**
 * What the airline refunds: nothing for an unpaid hold or a fare whose refund_before_departure is not
 * allowed (or not stated); otherwise what was paid less the fare's refund penalty.
 */
function refundOf(order: NativeOrder): string {
  const currency = order.total_currency;
  const rule = order.conditions.refund_before_departure;
  if (order.payment_status.awaiting_payment || !rule?.allowed) return fromMinorUnits(0n, currency);
  const penalty = rule.penalty_amount && rule.penalty_currency === currency ? toMinorUnits(rule.penalty_amount, currency) : 0n;
  const refund = toMinorUnits(order.total_amount, currency) - penalty;
  return fromMinorUnits(refund > 0n ? refund : 0n, currency);
}

/** One cancellation per order, named after it: the confirm step finds its order by it. *(invented)* */
export const cancellationIdOf = (orderId: string) => `ore_${orderId.slice(4)}`;
export const orderIdOfCancellation = (cancellationId: string) => `ord_${cancellationId.slice(4)}`;
