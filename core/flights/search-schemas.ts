/**
 * Flight search (provider_d): the request an agent or partner sends, and what it gets back. One schema
 * serves the service, the agent tools and the OpenAPI document.
 */
import { z } from 'zod';
import { CabinClass, CurrencyCode, Offer, PricingResult } from './offer-schemas.js';

const Airport = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'an IATA airport code such as LHR')
  .transform((code) => code.toUpperCase())
  .describe('IATA airport code, such as LHR.');

export const FlightSearchRequest = z
  .strictObject({
    origin: Airport,
    destination: Airport,
    departure_date: z.iso.date().describe('The day of departure, YYYY-MM-DD, local to the origin.'),
    return_date: z.iso.date().optional().describe('For a return trip: the day of the return flight, YYYY-MM-DD.'),
    passengers: z
      .strictObject({
        adults: z.number().int().min(1).max(9).default(1).describe('Travelers aged 12 or more.'),
        children: z.number().int().min(0).max(8).default(0).describe('Travelers aged 2 to 11.'),
        infants: z.number().int().min(0).max(9).default(0).describe('Travelers under 2, on an adult’s lap.'),
      })
      .default({ adults: 1, children: 0, infants: 0 }),
    cabin_class: CabinClass.default('economy'),
    currency: CurrencyCode.default('USD').describe('The currency to price the results in.'),
    max_results: z.number().int().min(1).max(50).default(10),
  })
  .superRefine((request, context) => {
    const { adults, children, infants } = request.passengers;
    if (adults + children > 9) context.addIssue({ code: 'custom', path: ['passengers'], message: 'at most 9 seated passengers (adults and children)' });
    if (infants > adults) context.addIssue({ code: 'custom', path: ['passengers', 'infants'], message: 'at most one infant per adult' });
    if (request.origin === request.destination) context.addIssue({ code: 'custom', path: ['destination'], message: 'must differ from origin' });
    if (request.return_date && request.return_date < request.departure_date) {
      context.addIssue({ code: 'custom', path: ['return_date'], message: 'must not be before departure_date' });
    }
  })
  .meta({ id: 'FlightSearchRequest' });
export type FlightSearchRequest = z.output<typeof FlightSearchRequest>;

/**
 * A search result: an offer as the search found it, before the provider has checked it. What the
 * provider decides only at that check (whether passengers need identity documents) is not known yet.
 */
export const SearchResultOffer = z
  .object({
    // The shape only: each result was already checked against Offer (amounts in their minor units) when normalized.
    ...Offer.shape,
    passenger_identity_documents_required: z
      .boolean()
      .nullable()
      .describe(
        'Not known at search (null): the airline says whether passengers need identity documents (passport or national identity card) only ' +
          'when it checks the flights, so create_offer’s offer says it (true or false). Ask the traveler for documents once that says true.',
      ),
  })
  .meta({ id: 'SearchResultOffer', description: 'A search result: an offer as the search found it, before the airline has checked it (create_offer).' });
export type SearchResultOffer = z.infer<typeof SearchResultOffer>;

export const FlightSearchResult = z
  .object({
    search_id: z.uuid(),
    expires_at: z.iso.datetime({ offset: true }).describe('Turn a result into an offer before this.'),
    offers: z
      .array(SearchResultOffer)
      .describe(
        'The results, cheapest first. Each `id` names the result within this search (for create_offer); `raw_offer` is left out; ' +
          '`passenger_identity_documents_required` is null, known only once create_offer has the flights checked.',
      ),
  })
  .meta({ id: 'FlightSearchResult' });
export type FlightSearchResult = z.infer<typeof FlightSearchResult>;

export const CreateOfferFromSearchRequest = z
  .strictObject({
    search_id: z.uuid().describe('The search the result came from.'),
    result_id: z.string().min(1).max(500).describe("The result's `id` in that search."),
  })
  .meta({ id: 'CreateOfferFromSearchRequest' });
export type CreateOfferFromSearchRequest = z.infer<typeof CreateOfferFromSearchRequest>;

export const CreatedOfferFromSearch = PricingResult.extend({ offer_id: z.uuid() }).meta({
  id: 'CreatedOfferFromSearch',
  description: 'The offer made from a search result, as the provider confirmed it; a changed price is said, never hidden.',
});
export type CreatedOfferFromSearch = z.infer<typeof CreatedOfferFromSearch>;
