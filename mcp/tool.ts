/**
 * What a tool is: a snake_case name, a description written for the agent that reads it, input and output
 * zod schemas taken from core, the scopes it needs, MCP's behaviour hints, and what it does with the
 * services core offers. One file per tool in tools/; adding a tool is adding a file and listing it in
 * tools/index.ts.
 */
import type { z } from 'zod';
import type { Actor } from '../core/actor.js';
import type { FlightSearchService } from '../core/flights/flight-search.js';
import type { OfferService } from '../core/flights/offers.js';
import type { Owner } from '../core/flights/owner.js';
import type { ProviderCatalog } from '../core/flights/provider-catalog.js';
import type { AgentBooking } from '../core/bookings/agent-booking.js';
import type { BookingService } from '../core/bookings/service.js';
import type { PaymentMethodService } from '../core/payment-methods/service.js';
import type { Scope } from '../core/scopes.js';

/** The core services tools call, handed in by the composition root. */
export interface ToolServices {
  offers: OfferService;
  flightSearch: FlightSearchService;
  providers: ProviderCatalog;
  paymentMethods: PaymentMethodService;
  bookings: BookingService;
  agentBookings: AgentBooking;
}

export interface ToolContext {
  /** The traveler and client the verified token stands for. */
  actor: Actor;
  /** Whose offers and searches the call may reach and makes: the traveler's, and their partner's. */
  owner: Owner;
  services: ToolServices;
}

/** MCP's hints about a tool's behaviour (spec: ToolAnnotations). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface Tool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: Output;
  /** Every one of them is needed; a call without one is refused with 403 insufficient_scope. */
  scopes: Scope[];
  hints: ToolHints;
  run(input: z.output<Input>, context: ToolContext): Promise<z.input<Output>>;
}

/** Declares a tool; the types tie `run` to its schemas. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject>(tool: Tool<Input, Output>): Tool<Input, Output> {
  return tool;
}
