/**
 * A traveler's trips (specification: User bookings; decisions §2). `{userid}` is `me` or the token's
 * traveler (an administrator's unscoped token reaches anyone's). Bookings that never reached the airline
 * (pending or failed) are not trips; another traveler's booking id is 403.
 */
import { z } from 'zod';
import type { Actor } from '../../core/actor.js';
import type { TripService } from '../../core/bookings/trips.js';
import { Booking, BookingPassenger, TripListQuery, TripSummary } from '../../core/bookings/schemas.js';
import { Offer } from '../../core/flights/offer-schemas.js';
import { resolveUserId, UserIdParam } from '../../core/users/access.js';
import type { UserService } from '../../core/users/service.js';
import { defineRoute, type Route } from '../route-table.js';

const UserPath = z.object({ userid: UserIdParam });
const BookingPath = UserPath.extend({
  bookingid: z.string().meta({ description: 'The booking’s `id`.', examples: ['3c9e1f7a-5b2d-4e8c-9a1f-7d6b5c4e3a21'] }),
});

export interface UserBookingRouteDeps {
  trips: TripService;
  users: UserService;
  /** The API's own origin, for the `Link` header's absolute URL. */
  baseUrl: string;
}

export function userBookingRoutes(deps: UserBookingRouteDeps): Route[] {
  const user = (actor: Actor | undefined, userid: string) => resolveUserId(actor as Actor, userid, deps.users);
  const common = { tags: ['Trips'], auth: 'api_key_and_bearer' as const, scope: 'bookings.read' as const };
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/users/{userid}/bookings',
      operationId: 'listUserBookings',
      summary: 'The traveler’s trips',
      description:
        'Newest first, `limit` a page (default 20, at most 100). The next page is in the `Link` header (`rel="next"`); the body stays a plain array. `status`: `cancelled` when the booking is; otherwise `completed` once the last travel date (return, else departure) is past; otherwise `upcoming`.',
      params: UserPath,
      query: TripListQuery,
      responses: {
        200: { description: 'The trips.', schema: z.array(TripSummary), headers: { Link: 'The next page: `<https://.../v1/users/me/bookings?limit=20&cursor=...>; rel="next"`, when there is one.' } },
      },
      errors: [404],
      handler: async ({ actor, params, query }) => {
        const userId = await user(actor, params.userid);
        const { trips, next } = await deps.trips.list(userId, query);
        if (!next) return { body: trips };
        const url = new URL(`/v1/users/${encodeURIComponent(params.userid)}/bookings`, deps.baseUrl);
        if (query.status) url.searchParams.set('status', query.status);
        url.searchParams.set('limit', String(query.limit));
        url.searchParams.set('cursor', next);
        return { body: trips, headers: { Link: `<${url.href}>; rel="next"` } };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/users/{userid}/bookings/{bookingid}',
      operationId: 'getUserBooking',
      summary: 'A booking of the traveler',
      description: 'The full record of one of the traveler’s bookings, whatever its status; another traveler’s is 403.',
      params: BookingPath,
      responses: { 200: { description: 'The booking.', schema: Booking } },
      errors: [404],
      handler: async ({ actor, params }) => ({ body: await deps.trips.ofUser(await user(actor, params.userid), params.bookingid) }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/users/{userid}/bookings/{bookingid}/passengers',
      operationId: 'getUserBookingPassengers',
      summary: 'Who travels on a booking',
      description: 'Each passenger as booked, with the ticket number once ticketed and the seats chosen.',
      params: BookingPath,
      responses: { 200: { description: 'The passengers.', schema: z.array(BookingPassenger) } },
      errors: [404],
      handler: async ({ actor, params }) => ({ body: await deps.trips.passengers(await user(actor, params.userid), params.bookingid) }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/users/{userid}/bookings/{bookingid}/offer',
      operationId: 'getUserBookingOffer',
      summary: 'The offer behind a booking',
      description: 'The offer as it was booked (normalized, with the provider’s own as `raw_offer`), kept with the booking after the offer itself expires.',
      params: BookingPath,
      responses: { 200: { description: 'The offer as booked.', schema: Offer.meta({ description: 'An Offer (normalized) as it was booked.' }) } },
      errors: [404],
      handler: async ({ actor, params }) => ({ body: await deps.trips.offer(await user(actor, params.userid), params.bookingid) }),
    }),
  ];
}
