/**
 * Flight search through provider_d, the one provider we search ourselves (the agent tools
 * `search_flights` and `create_offer` call this): a search keeps the provider's results for 30 minutes;
 * turning one into an offer checks it with the provider first (its check_flights: still sold, at what
 * price), then stores it as an offer like createProviderOffer does.
 */
import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { GoneError, NotFoundError, NotImplementedError, ValidationError } from '../errors.js';
import { parseOrThrow } from '../validation.js';
import type { FlightProvider, FlightSearcher, SearchHit } from './flight-provider.js';
import type { OfferNormalizer } from './offer-normalizer.js';
import type { OfferService } from './offers.js';
import { ownerColumns, searchesReachedBy, type Owner } from './owner.js';
import type { ProviderCatalog } from './provider-catalog.js';
import {
  CreateOfferFromSearchRequest,
  FlightSearchRequest,
  type CreatedOfferFromSearch,
  type FlightSearchResult,
} from './search-schemas.js';

export const SEARCH_PROVIDER = 'provider_d';
const SEARCH_LIFETIME_MS = 30 * 60 * 1000;
const DAY_MS = 86_400_000;

interface SearchRow {
  id: string;
  results: SearchHit[];
  expires_at: Date;
}

export class FlightSearchService {
  constructor(
    private readonly deps: {
      db: Knex;
      clock: Clock;
      providers: ProviderCatalog;
      normalizer: OfferNormalizer;
      /** provider_d's adapter, when its system is configured (or sandboxed). */
      searcher: (FlightSearcher & FlightProvider) | undefined;
      offers: OfferService;
    },
  ) {}

  async search(owner: Owner, input: unknown): Promise<FlightSearchResult> {
    const request = parseOrThrow(FlightSearchRequest, input);
    this.#checkDates(request);
    const hits = await this.#searcher().search(request);
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + SEARCH_LIFETIME_MS);
    // A result the provider wrote in a form we cannot read could not be booked either: it is left out.
    const readable = hits.flatMap((hit) => {
      try {
        const { raw_offer: _raw, ...offer } = this.deps.normalizer.normalize(hit.native, now).offer;
        // Whether documents are needed is the provider's answer at check (create_offer), not the search's:
        // unknown here, never a guess that the offer may contradict.
        return [{ hit, offer: { ...offer, id: hit.resultId, passenger_identity_documents_required: null } }];
      } catch (error) {
        if (error instanceof ValidationError) return [];
        throw error;
      }
    });
    const kept = readable.slice(0, request.max_results);
    const results = kept.map(({ hit }) => hit);
    const offers = kept.map(({ offer }) => offer);
    const [row] = await this.deps
      .db('flight_searches')
      .insert({
        provider_id: SEARCH_PROVIDER,
        ...ownerColumns(owner),
        query: JSON.stringify(request),
        results: JSON.stringify(results),
        expires_at: expiresAt,
        created_at: now,
      })
      .returning('id');
    return { search_id: row.id as string, expires_at: expiresAt.toISOString(), offers };
  }

  /**
   * Checks a search result with the provider (still sold, and at what price now), then keeps it as the
   * caller's offer. A changed price is said, with the price the search showed.
   */
  async createOffer(owner: Owner, input: unknown): Promise<CreatedOfferFromSearch> {
    const request = parseOrThrow(CreateOfferFromSearchRequest, input);
    const search: SearchRow | undefined = await searchesReachedBy(this.deps.db('flight_searches').where({ id: request.search_id }), owner).first();
    if (!search) throw new NotFoundError(`There is no search ${request.search_id} that you can reach: search again (search_flights).`, 'search_not_found');
    if (search.expires_at <= this.deps.clock.now()) {
      throw new GoneError(`This search expired at ${search.expires_at.toISOString()}: its results can no longer be booked. Search again.`, 'search_expired');
    }
    const native = search.results.find((hit) => hit.resultId === request.result_id)?.native;
    if (!native) {
      throw new NotFoundError(`The search has no result ${request.result_id}: use the id of one of its offers.`, 'search_result_not_found');
    }
    const searched = this.deps.normalizer.normalize(native, this.deps.clock.now()).offer;
    const checked = await this.#searcher().price(native);
    const { offer_id: offerId } = await this.deps.offers.create(owner, SEARCH_PROVIDER, checked.offer.raw_offer);
    const offer = await this.deps.offers.get(owner, SEARCH_PROVIDER, offerId);
    return {
      offer_id: offerId,
      offer,
      price_changed: offer.total_amount !== searched.total_amount,
      previous_total_amount: searched.total_amount,
    };
  }

  /** Deletes searches a day after they expired (until then they answer 410 rather than 404). */
  async sweepExpired(): Promise<number> {
    return this.deps.db('flight_searches').where('expires_at', '<', new Date(this.deps.clock.now().getTime() - DAY_MS)).delete();
  }

  /**
   * Not in the past, and not further ahead than the provider sells. Dates are local to the airport, so
   * "today" somewhere may still be yesterday in UTC (down to UTC−12): that day is allowed too.
   */
  #checkDates(request: FlightSearchRequest): void {
    const now = this.deps.clock.now().getTime();
    const today = new Date(now - DAY_MS).toISOString().slice(0, 10);
    const furthest = new Date(now + this.deps.providers.capabilities(SEARCH_PROVIDER).max_advance_booking_days * DAY_MS).toISOString().slice(0, 10);
    const problems = (['departure_date', 'return_date'] as const)
      .filter((field) => request[field] !== undefined)
      .flatMap((field) => {
        const date = request[field] as string;
        if (date < today) return [{ field, rule: 'not_in_past', message: `${date} is in the past: search from ${today} on` }];
        if (date > furthest) return [{ field, rule: 'too_far_ahead', message: `flights are sold up to ${furthest}` }];
        return [];
      });
    if (problems.length > 0) throw new ValidationError(problems);
  }

  #searcher(): FlightSearcher & FlightProvider {
    if (!this.deps.searcher) {
      throw new NotImplementedError(`Flight search needs ${SEARCH_PROVIDER}, which is not configured here: set PROVIDER_D_URL and PROVIDER_D_TOKEN.`, 'search_not_available');
    }
    return this.deps.searcher;
  }
}
