/**
 * The values that steer provider_c's sandbox down each path (the README's magic-values table lists them):
 * the flight number of the offer's first DatedMarketingSegment, and a surname.
 */
export const MAGIC_FLIGHT_NUMBERS = {
  /** OfferPrice answers 7.5% more on every base fare (taxes unchanged) and warns 711; each pricing again adds as much. */
  priceChange: '9931',
  /** The held order reprices right after OrderCreate: OrderChange with the held total answers 727 with the OrderID. */
  priceChangeAtBooking: '9932',
  /** OfferPrice and OrderCreate answer 496 No available flights. */
  soldOut: '9933',
  /** Every offer call answers 913, whatever the offer's time limit says (the airline withdrew it early). */
  expired: '9934',
  /**
   * OfferPrice and SeatAvailability answer after 22 s (past the 20 s pricing timeout), OrderCreate after
   * 50 s (past the 45 s booking timeout); an OrderCreate whose caller hung up first books nothing.
   */
  slow: '9935',
  /** OfferPrice, SeatAvailability and OrderCreate answer HTTP 500 (911 System error). */
  systemError: '9936',
  /** OfferPrice, SeatAvailability and OrderCreate answer HTTP 200 with Errors 911 (internal error). */
  internalError: '9937',
} as const;

/** A surname that OrderCreate refuses with 314, as it refuses names that are not letters. */
export const MAGIC_SURNAME_INVALID = 'INVALID';

export const SANDBOX_TOKEN_PREFIX = 'ndc_test_';

/** Past provider_c's pricing timeout (20 s). */
export const SLOW_PRICING_MS = 22_000;
/** Past provider_c's booking timeout (45 s). */
export const SLOW_BOOKING_MS = 50_000;
