/**
 * Codes of what this service cannot do here (501), and of failures that are nobody's request's fault: an
 * outside system failing or slow (502, 504), the service not ready or failing itself (503, 500).
 */
import type { ErrorGroup } from './entry.js';

export const AVAILABILITY_ERRORS: readonly ErrorGroup[] = [
  {
    title: 'Not offered here',
    summary: 'This service does not offer it (with this provider, or in this installation): the message says what works instead.',
    entries: {
      not_implemented: {
        status: 501,
        title: 'Not offered',
        help: 'This service does not offer this (yet): the message says what works instead.',
        retryable: false,
        needsUser: false,
      },
      provider_not_supported: {
        status: 501,
        title: 'Not supported for this provider',
        help: 'This service does not reach this provider’s system for this operation: use another provider (`GET /v1/flights/providers` and their capabilities say which do what).',
        retryable: false,
        needsUser: false,
      },
      provider_offers_not_supported: {
        status: 501,
        title: 'Offers of this provider are not supported',
        help: 'Offers of this provider cannot be handed over here: the message names the providers whose offers can.',
        retryable: false,
        needsUser: false,
      },
      search_not_available: {
        status: 501,
        title: 'Flight search is not configured',
        help: 'Flight search needs a provider this installation has not configured: its operator sets the provider’s URL and token.',
        retryable: false,
        needsUser: false,
      },
      payment_processor_not_configured: {
        status: 501,
        title: 'No payment processor',
        help: 'This installation has no payment processor configured, so bookings cannot be paid: its operator configures one.',
        retryable: false,
        needsUser: false,
      },
    },
  },
  {
    title: 'Outside systems and our side',
    summary: 'An airline, the card vault, the payment processor or the mail relay failed, or this service did: nothing is wrong with the request, so retrying later may work.',
    entries: {
      provider_unavailable: {
        status: 502,
        title: 'The flight provider failed',
        help: 'The airline’s system did not answer as expected: try again in a moment. A booking request carrying the same idempotency key is never booked or charged twice.',
        retryable: true,
        needsUser: false,
      },
      payment_unavailable: {
        status: 502,
        title: 'Card payments are unavailable',
        help: 'The card vault or the payment processor is not answering as expected: try again in a moment, with the same idempotency key where the operation takes one.',
        retryable: true,
        needsUser: false,
      },
      mail_unavailable: {
        status: 502,
        title: 'The e-mail could not be sent',
        help: 'The mail relay did not take the message: try again in a moment.',
        retryable: true,
        needsUser: false,
      },
      sms_unavailable: {
        status: 502,
        title: 'The text message could not be sent',
        help: 'Text messages are unavailable just now, or not configured here: try again in a moment, or sign in with the e-mail code instead.',
        retryable: true,
        needsUser: false,
      },
      provider_timeout: {
        status: 504,
        title: 'The flight provider did not answer in time',
        help: 'The airline’s system did not answer within the time its capabilities allow: try again in a moment. A booking request carrying the same idempotency key is never booked or charged twice.',
        retryable: true,
        needsUser: false,
      },
      payment_timeout: {
        status: 504,
        title: 'The payment system did not answer in time',
        help: 'The card vault or the payment processor did not answer in time, so the payment may or may not have been made: try again in a moment with the same idempotency key, which never charges twice.',
        retryable: true,
        needsUser: false,
      },
      not_ready: {
        status: 503,
        title: 'Not ready',
        help: 'The service cannot serve requests yet (its database does not answer): retry shortly.',
        retryable: true,
        needsUser: false,
      },
      shutting_down: {
        status: 503,
        title: 'This instance is stopping',
        help: 'Only readiness answers this: the instance received SIGTERM and is finishing its work. A load balancer sends requests to the other instances; a request already sent here is still served.',
        retryable: true,
        needsUser: false,
      },
      internal_error: {
        status: 500,
        title: 'Something went wrong on our side',
        help: 'An unexpected error: the answer says nothing more, by design, and the detail is in our log under the request id. Retry in a moment; if it keeps failing, contact support and quote `request_id`.',
        retryable: true,
        needsUser: false,
      },
    },
  },
];
