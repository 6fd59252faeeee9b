import { z } from 'zod';

export const PROVIDER_IDS = ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e'] as const;

export const ProviderId = z.enum(PROVIDER_IDS).describe('The flight provider, used literally in `{provider}` path segments.');
export type ProviderId = z.infer<typeof ProviderId>;

const flag = (description: string) => z.boolean().describe(description);
const count = (description: string) => z.number().int().min(0).describe(description);

/** provider_b's, as seeded. */
const CAPABILITIES_EXAMPLE = {
  supports_direct_booking: true,
  requires_pricing: false,
  requires_payment_step: false,
  requires_order_creation: true,
  supports_offer_passenger_update: true,
  supports_integrated_pricing_booking: true,
  supports_seat_selection: true,
  supports_bag_selection: true,
  supports_refunds: true,
  supports_changes: true,
  supports_partial_booking: false,
  supports_hold_booking: true,
  max_passengers: 9,
  max_connections: 2,
  max_advance_booking_days: 330,
  min_advance_booking_hours: 2,
  search_timeout_seconds: 10,
  pricing_timeout_seconds: 10,
  booking_timeout_seconds: 60,
  supported_currencies: ['GBP', 'USD', 'EUR'],
  supported_cabin_classes: ['economy', 'premium_economy', 'business', 'first'],
};

export const ProviderCapabilities = z
  .object({
    supports_direct_booking: flag('A booking can be created from the offer without a separate order step.'),
    requires_pricing: flag('The offer must be priced (`priceProviderOffer`) before booking.'),
    requires_payment_step: flag('The provider takes payment in a step after the order exists.'),
    requires_order_creation: flag('The provider creates an order (or hold) before it tickets.'),
    supports_offer_passenger_update: flag('Passenger details can be updated on the offer (`updateOfferPassenger`).'),
    supports_integrated_pricing_booking: flag('Pricing and booking happen in one call.'),
    supports_seat_selection: flag('Seat maps are available and seats can be chosen.'),
    supports_bag_selection: flag('Extra bags can be added from `available_services`.'),
    supports_refunds: flag('A confirmed booking can be cancelled with a refund.'),
    supports_changes: flag('A confirmed booking can be changed.'),
    supports_partial_booking: flag('Some passengers of an offer can be booked without the others.'),
    supports_hold_booking: flag('`order_type=hold` is supported: the order is held before payment.'),
    max_passengers: count('Most passengers in one booking.'),
    max_connections: count('Most connections per slice.'),
    max_advance_booking_days: count('How far ahead a flight can be booked, in days.'),
    min_advance_booking_hours: count('How close to departure a flight can still be booked, in hours.'),
    search_timeout_seconds: count('How long a search may take before it is abandoned.'),
    pricing_timeout_seconds: count('How long pricing may take before it is abandoned.'),
    booking_timeout_seconds: count('How long booking may take before it is abandoned.'),
    supported_currencies: z.array(z.string().length(3)).describe('ISO 4217 codes the provider sells in.'),
    supported_cabin_classes: z
      .array(z.enum(['economy', 'premium_economy', 'business', 'first']))
      .describe('Cabin classes the provider sells.'),
  })
  .meta({
    id: 'ProviderCapabilities',
    description: 'What a provider can do. Read it at runtime to decide which steps (pricing, seat selection, hold) apply.',
    examples: [CAPABILITIES_EXAMPLE],
  });
export type ProviderCapabilities = z.infer<typeof ProviderCapabilities>;

export const Provider = z
  .object({
    id: ProviderId,
    name: z.string(),
    type: z.enum(['GDS', 'NDC', 'API', 'OTA']),
    capabilities: ProviderCapabilities,
    config: z.record(z.string(), z.unknown()).describe('Provider-specific settings that clients may read.'),
    is_active: z.boolean(),
    priority: z.number().int().describe('Search priority; lower is higher priority.'),
  })
  .meta({
    id: 'Provider',
    description: 'A flight provider and its capabilities.',
    examples: [
      {
        id: 'provider_b',
        name: 'Provider B (API)',
        type: 'API',
        capabilities: CAPABILITIES_EXAMPLE,
        config: { supports_services: true },
        is_active: true,
        priority: 2,
      },
    ],
  });
export type Provider = z.infer<typeof Provider>;

/**
 * The document lists the five providers, but any string is taken: an unknown one then answers 404
 * `provider_not_found` naming the known ones, which says more than a validation error would.
 */
export const ProviderPathParams = z.object({
  provider: z.string().meta({ description: 'The flight provider: `provider_a` to `provider_e`.', enum: [...PROVIDER_IDS], examples: ['provider_b'] }),
});
