/**
 * provider_b's seat maps (Duffel-like), drawn from the shared seat fixtures (sandbox-cabins.ts), and the
 * `ase_` seat services they sell: one per free seat and passenger, which an order names in `services`.
 */
import { toDecimalString } from '../../../core/money/money.js';
import { cabinsOf, seatState, type CabinLayout } from '../sandbox-cabins.js';
import type { NativeOffer } from './sandbox-catalogue.js';

/** A seat sold as a service: for one passenger on one segment. */
export interface SeatService {
  id: string;
  segmentId: string;
  passengerId: string;
  designator: string;
  totalAmount: string;
  totalCurrency: string;
}

export function seatMaps(offer: NativeOffer) {
  return segmentsOf(offer).map(({ sliceId, segment, index }) => seatMap(offer, sliceId, segment.id, index, segment.aircraft?.iata_code));
}

/** Every seat service of the offer's seat maps, by its id. */
export function seatServices(offer: NativeOffer): Map<string, SeatService> {
  const services = new Map<string, SeatService>();
  for (const { segment, index } of segmentsOf(offer)) {
    for (const layout of cabinsOf(segment.aircraft?.iata_code)) {
      for (let row = layout.rows[0]; row <= layout.rows[1]; row++) {
        for (const letter of layout.sections.flat()) {
          for (const service of servicesOfSeat(offer, index, segment.id, row, letter, layout)) services.set(service.id, service);
        }
      }
    }
  }
  return services;
}

function segmentsOf(offer: NativeOffer) {
  return offer.slices.flatMap((slice) => slice.segments.map((segment) => ({ sliceId: slice.id, segment }))).map((item, index) => ({ ...item, index }));
}

function servicesOfSeat(offer: NativeOffer, segmentIndex: number, segmentId: string, row: number, letter: string, layout: CabinLayout): SeatService[] {
  const state = seatState(row, letter, layout, offer.total_currency);
  if (state.status !== 'available') return [];
  const totalAmount = toDecimalString(state.price, offer.total_currency);
  // The id names the segment, seat and passenger, so that an order's service says all three.
  return offer.passengers.map((passenger, index) => ({
    id: `ase_s${segmentIndex}${state.designator}p${index}`,
    segmentId,
    passengerId: passenger.id,
    designator: state.designator,
    totalAmount,
    totalCurrency: offer.total_currency,
  }));
}

function seatMap(offer: NativeOffer, sliceId: string, segmentId: string, segmentIndex: number, aircraft: string | undefined) {
  return {
    id: `sea_${segmentId.slice(4)}`,
    segment_id: segmentId,
    slice_id: sliceId,
    cabins: cabinsOf(aircraft).map((layout) => {
      const rows: { sections: { elements: Record<string, unknown>[] }[] }[] = [];
      let wingStart: number | null = null;
      let wingEnd: number | null = null;
      for (let row = layout.rows[0]; row <= layout.rows[1]; row++) {
        if (layout.exitRows.includes(row)) {
          rows.push({ sections: layout.sections.map((_, index) => ({ elements: index === 0 || index === layout.sections.length - 1 ? [{ type: 'exit_row' }] : [] })) });
        }
        if (layout.wingRows && row === layout.wingRows[0]) wingStart = rows.length;
        rows.push({ sections: layout.sections.map((letters) => ({ elements: letters.map((letter) => seat(offer, segmentIndex, segmentId, row, letter, layout)) })) });
        if (layout.wingRows && row === layout.wingRows[1]) wingEnd = rows.length - 1;
      }
      return {
        deck: 0,
        cabin_class: layout.cabinClass,
        aisles: layout.sections.length - 1,
        wings: wingStart !== null && wingEnd !== null ? { first_row_index: wingStart, last_row_index: wingEnd } : null,
        rows,
      };
    }),
  };
}

function seat(offer: NativeOffer, segmentIndex: number, segmentId: string, row: number, letter: string, layout: CabinLayout): Record<string, unknown> {
  const state = seatState(row, letter, layout, offer.total_currency);
  const disclosures = state.status === 'blocked' ? ['restricted_seat_general'] : [];
  const services = servicesOfSeat(offer, segmentIndex, segmentId, row, letter, layout).map((service) => ({
    id: service.id,
    passenger_id: service.passengerId,
    total_amount: service.totalAmount,
    total_currency: service.totalCurrency,
  }));
  return { type: 'seat', designator: state.designator, disclosures, available_services: services };
}
