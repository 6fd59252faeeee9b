/**
 * The magic values that steer provider_a's sandbox down each path (the README's magic-values table lists
 * them). The first segment's flight `number` steers pricing, seat maps and the order; a traveler's last name
 * steers the order's passenger check.
 */
export const MAGIC_FLIGHT_NUMBERS = {
  /** Pricing answers 12% more on the base fare. */
  priceChange: '9901',
  /** Pricing and the order answer 34651 SEGMENT SELL FAILURE. */
  soldOut: '9902',
  /** Pricing and seat maps answer after 17 s (past the 15 s pricing timeout); the order after 32 s (past 30 s). */
  slow: '9903',
  /** Pricing, seat maps and the order answer 500 with 141 SYSTEM ERROR HAS OCCURRED. */
  systemError: '9904',
  /** A stale offer: 4926 INVALID DATA RECEIVED at pricing and at the order (its offers carry no expiry). */
  expired: '9905',
  /** Priced fine; the order answers 37200 PRICE DISCREPANCY with a grandTotal 8% higher, and books nothing. */
  priceChangeAtBooking: '9906',
} as const;

/** A traveler last name the order refuses (477 INVALID FORMAT), like one that fails the airline's checks. */
export const MAGIC_INVALID_LAST_NAME = 'INVALID';
/** A traveler last name the order refuses as sold out (providers.md §4: surname SOLDOUT). */
export const MAGIC_SOLD_OUT_LAST_NAME = 'SOLDOUT';
/** Bearer tokens the sandbox accepts start with this. */
export const SANDBOX_TOKEN_PREFIX = 'amadeus_test_';
