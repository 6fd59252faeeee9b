/**
 * provider_e's seat maps, from the shared seat fixtures (sandbox-cabins.ts): per segment, every seat's
 * state, and each free seat sold as an attachable SEAT service per seated passenger. The same services
 * are what a prebook attaches (POST /flights/prebooks/{id}/services).
 */
import { cabinsOf, seatState } from '../sandbox-cabins.js';
import type { NativeOffer, NativeService } from './sandbox-catalogue.js';

export function seatMap(segmentRef: string, aircraft: string | undefined, offer: NativeOffer) {
  const currency = offer.pricing.display.currency;
  // Infants travel on a lap: no seat of their own.
  const seated = offer.passengers.filter((passenger) => passenger.type !== 'INF');
  const seats: Record<string, unknown>[] = [];
  const services: (NativeService & { description: string })[] = [];
  for (const layout of cabinsOf(aircraft)) {
    for (let row = layout.rows[0]; row <= layout.rows[1]; row++) {
      for (const letter of layout.sections.flat()) {
        const state = seatState(row, letter, layout, currency);
        seats.push({
          seatNumber: state.designator,
          cabin: layout.cabinClass.toUpperCase(),
          status: state.status.toUpperCase(),
          position: state.position.toUpperCase(),
          exitRow: state.exitRow,
        });
        if (state.status !== 'available') continue;
        const kind = state.exitRow ? 'Exit row seat' : state.price > 0 ? 'Preferred seat' : 'Standard seat';
        for (const passenger of seated) {
          services.push({
            serviceId: `seat_${segmentRef}_${state.designator}_${passenger.passengerRef}`,
            type: 'SEAT',
            segmentRef,
            passengerRef: passenger.passengerRef,
            seatNumber: state.designator,
            description: `${kind} ${state.designator}`,
            price: { amount: state.price, currency },
          });
        }
      }
    }
  }
  return { segmentRef, aircraft: aircraft ?? null, seats, servicesAttachable: services };
}

/** The seat maps of every leg of the offer. */
export function seatMaps(offer: NativeOffer) {
  return offer.journeys.flatMap((journey) => journey.legs.map((leg) => seatMap(leg.segmentRef, leg.aircraft?.code, offer)));
}

/** Everything a prebook of `offer` can attach: its bags and meals, and the seats of its seat maps. */
export function attachable(offer: NativeOffer): Map<string, NativeService> {
  const services = [...(offer.servicesAttachable ?? []).filter((service) => service.type !== 'SEAT'), ...seatMaps(offer).flatMap((map) => map.servicesAttachable)];
  return new Map(services.map((service) => [service.serviceId, service]));
}
