/** The shape of the error catalog's entries (error-catalog.ts assembles them). */

export interface ErrorAdvice {
  /** The same request may succeed later, unchanged (after Retry-After where one is given). */
  retryable: boolean;
  /** Only the traveler can unblock it: ask them, or show them a URL. */
  needsUser: boolean;
}

export interface ErrorEntry extends ErrorAdvice {
  /**
   * The HTTP status the REST API answers this code with (a few codes come with two, depending on the
   * provider that refused). Documentation only: the REST door maps each error kind to its status in one
   * place, and a test holds these to it. Tool errors carry the same code without a status.
   */
  status: number | readonly number[];
  /** A short title for the docs page. */
  title: string;
  /** What to do about it, for the docs page: the next step, in words for a developer or an agent. */
  help: string;
}

/** Codes of one family (one or a few error kinds), as the docs page shows them under one heading. */
export interface ErrorGroup {
  title: string;
  /** One sentence on what the family has in common. */
  summary: string;
  entries: Readonly<Record<string, ErrorEntry>>;
}
