/**
 * Airline names by IATA code, for the providers that send only codes (provider_a, provider_c and
 * provider_d name no carrier). It names at least every carrier the sandboxes fly (their fixtures and
 * provider_d's search catalogue: test/airline-names.test.ts walks them); a code not listed stays unnamed
 * rather than guessed. A name the provider gave is always kept.
 */
import type { OfferNormalizer } from './offer-normalizer.js';

const AIRLINE_NAMES: Readonly<Record<string, string>> = {
  AA: 'American Airlines',
  AF: 'Air France',
  BA: 'British Airways',
  EI: 'Aer Lingus',
  EK: 'Emirates',
  KU: 'Kuwait Airways',
  NH: 'All Nippon Airways',
  VS: 'Virgin Atlantic',
};

export function airlineName(iataCode: string): string | undefined {
  return Object.hasOwn(AIRLINE_NAMES, iataCode) ? AIRLINE_NAMES[iataCode] : undefined;
}

function named<C extends { iata_code: string; name?: string }>(carrier: C): C {
  if (carrier.name) return carrier;
  const name = airlineName(carrier.iata_code);
  return name ? { ...carrier, name } : carrier;
}

/** `normalizer`, with every carrier of its offers (owner, marketing, operating) named where the provider did not. */
export function withAirlineNames(normalizer: OfferNormalizer): OfferNormalizer {
  return {
    providerId: normalizer.providerId,
    normalize(native, now) {
      const normalized = normalizer.normalize(native, now);
      const { offer } = normalized;
      return {
        ...normalized,
        offer: {
          ...offer,
          owner: named(offer.owner),
          slices: offer.slices.map((slice) => ({
            ...slice,
            segments: slice.segments.map((segment) => ({ ...segment, marketing_carrier: named(segment.marketing_carrier), operating_carrier: named(segment.operating_carrier) })),
          })),
        },
      };
    },
  };
}
