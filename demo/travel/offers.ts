/**
 * What Demo Travel sells: one offer of each provider, fetched from that provider's sandbox in its own
 * dialect, as a travel agency gets offers from the providers it deals with (README, "Sandboxes"). Some are
 * handed to the checkout button raw (`flightOffer`: the button creates the offer with the page's
 * publishable key), the others are created by the agency's backend with its secret key and handed over
 * by id (`flightOfferID`), to show both ways.
 */
import got from 'got';

export type ProviderId = 'provider_a' | 'provider_b' | 'provider_c' | 'provider_d' | 'provider_e';

export interface Product {
  provider: ProviderId;
  title: string;
  detail: string;
  /** `raw`: the page gives the button the provider's offer; `id`: the backend creates it and gives its id. */
  handover: 'raw' | 'id';
  /** The provider's offer, fetched from its sandbox (`sandboxUrl` is the service's `/sandbox`). */
  fetch(sandboxUrl: string, now: Date): Promise<Record<string, unknown>>;
  /** The total as the provider states it. */
  price(offer: Record<string, unknown>): { amount: number; currency: string } | undefined;
}

const FETCH_TIMEOUT_MS = 10_000;

async function getJson(url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  return got(url, { headers, timeout: { request: FETCH_TIMEOUT_MS }, retry: { limit: 0 } }).json<Record<string, unknown>>();
}

/** dd/mm/YYYY, provider_d's dates. */
function kiwiDate(date: Date): string {
  return `${String(date.getUTCDate()).padStart(2, '0')}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/${date.getUTCFullYear()}`;
}

const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

function priced(amount: unknown, currency: unknown): { amount: number; currency: string } | undefined {
  const number = typeof amount === 'number' ? amount : typeof amount === 'string' ? Number(amount) : NaN;
  return Number.isFinite(number) && typeof currency === 'string' ? { amount: number, currency } : undefined;
}

export const PRODUCTS: readonly Product[] = [
  {
    provider: 'provider_a',
    title: 'London → Paris, return',
    detail: 'BA304 out, BA307 back a week later · 1 adult · Basic fare',
    handover: 'raw',
    async fetch(sandboxUrl) {
      const answer = await getJson(`${sandboxUrl}/flights/provider_a/v2/shopping/flight-offers?originLocationCode=LHR&destinationLocationCode=CDG`, {
        authorization: 'Bearer amadeus_test_demo_travel',
      });
      return record((answer.data as unknown[] | undefined)?.[0]);
    },
    price: (offer) => priced(record(offer.price).grandTotal, record(offer.price).currency),
  },
  {
    provider: 'provider_b',
    title: 'London → New York',
    detail: 'BA117 · 1 adult · a checked bag on sale',
    handover: 'id',
    async fetch(sandboxUrl) {
      const answer = await getJson(`${sandboxUrl}/flights/provider_b/air/offers/off_0000AuPyAJY1KPrmYbBxIm`, {
        authorization: 'Bearer duffel_test_demo_travel',
        'duffel-version': 'v2',
      });
      return record(answer.data);
    },
    price: (offer) => priced(offer.total_amount, offer.total_currency),
  },
  {
    provider: 'provider_c',
    title: 'London → New York, for a family',
    detail: 'VS3 · 2 adults, a child and an infant · refundable',
    handover: 'raw',
    async fetch(sandboxUrl) {
      const answer = await getJson(`${sandboxUrl}/flights/provider_c/Offers/${encodeURIComponent('d2sr9k1Qx7|6f7c2f1e-5b9a-4d2e-9f0a-3c1b2a4d5e6f')}`, {
        authorization: 'Bearer ndc_test_demo_travel',
      });
      return record(answer.PricedOffer);
    },
    price: (offer) => {
      const total = record(record(offer.TotalPrice).TotalAmount);
      return priced(total.amount, total.curCode);
    },
  },
  {
    provider: 'provider_d',
    title: 'London → New York, three weeks from today',
    detail: 'The cheapest direct flight of the day · 1 adult',
    handover: 'id',
    async fetch(sandboxUrl, now) {
      const day = kiwiDate(new Date(now.getTime() + 21 * 24 * 60 * 60 * 1000));
      const answer = await getJson(`${sandboxUrl}/flights/provider_d/v2/search?fly_from=LHR&fly_to=JFK&date_from=${encodeURIComponent(day)}&curr=GBP&adults=1`, {
        apikey: 'kiwi_test_demo_travel',
      });
      // provider_d's offer is its search answer narrowed to the chosen item (README, "Sandboxes").
      const item = (answer.data as unknown[] | undefined)?.find((candidate) => (record(candidate).route as unknown[] | undefined)?.length === 1) ?? (answer.data as unknown[] | undefined)?.[0];
      return { currency: answer.currency, search_params: answer.search_params, data: item ? [item] : [] };
    },
    price: (offer) => priced(record((offer.data as unknown[] | undefined)?.[0]).price, offer.currency),
  },
  {
    provider: 'provider_e',
    title: 'Kuwait → Dubai',
    detail: 'KU675 · 1 adult · a bag on sale',
    handover: 'raw',
    async fetch(sandboxUrl) {
      const answer = await getJson(`${sandboxUrl}/flights/provider_e/v3.0/flights/offers/hKFzrWt1Njc1LWt3aS1keGKhZKgyMDI2MDYxMKFjo0tXRKFmplZMT1dLVw`, {
        'x-api-key': 'liteapi_test_demo_travel',
      });
      return record(record(answer.data).offer);
    },
    price: (offer) => priced(record(record(offer.pricing).display).total, record(record(offer.pricing).display).currency),
  },
];
