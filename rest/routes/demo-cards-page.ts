/**
 * The sandbox's card-capture demo: the component embedded for the signed-in traveler, the test cards to
 * type into it, and a list of the events it reports (what a partner's analytics would receive). Static
 * HTML: the component fetches everything else itself, and the page's own script is a served file.
 */

export interface DemoCardsPageOptions {
  stylesheetPath: string;
  componentPath: string;
  scriptPath: string;
}

/** Stripe's public test numbers, which the vault sandbox accepts (decisions §8). */
const TEST_CARDS: ReadonlyArray<readonly [string, string, string]> = [
  ['4242 4242 4242 4242', 'Visa', 'any future expiry, any 3-digit security code'],
  ['5555 5555 5555 4444', 'Mastercard', 'any future expiry, any 3-digit security code'],
  ['3782 822463 10005', 'American Express', 'any future expiry, any 4-digit security code'],
  ['6011 1111 1111 1117', 'Discover', 'any future expiry, any 3-digit security code'],
  ['4000 0000 0000 0002', 'Visa, declined', 'saved like any card; a booking with it is declined'],
  ['4000 0000 0000 9995', 'Visa, insufficient funds', 'saved like any card; a booking with it is declined'],
];

export function demoCardsPage(options: DemoCardsPageOptions): string {
  const rows = TEST_CARDS.map(([number, kind, note]) => `        <tr><td><code>${number}</code></td><td>${kind}</td><td>${note}</td></tr>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Saved cards demo · Travel Partner</title>
  <link rel="stylesheet" href="${options.stylesheetPath}">
  <link rel="icon" href="/favicon.ico" type="image/svg+xml">
  <script type="module" src="${options.componentPath}"></script>
  <script type="module" src="${options.scriptPath}"></script>
</head>
<body>
  <main class="quickstart">
    <h1>Saved cards demo</h1>
    <p>This is the sandbox's demo of the card-capture component, <code>&lt;card-capture user-id="me"&gt;</code>, as a partner
      embeds it. It works on your own sign-in: the cards below are yours. Card numbers are typed into the card vault's own
      frame and never reach this service; it keeps the brand, the last four digits and the expiry only.</p>

    <card-capture user-id="me"></card-capture>
    <p>Selected card: <output id="selected">none</output></p>

    <h2>Test cards</h2>
    <p>Nothing here is a real card. Use these numbers:</p>
    <table>
      <thead><tr><th scope="col">Number</th><th scope="col">Card</th><th scope="col">Notes</th></tr></thead>
      <tbody>
${rows}
      </tbody>
    </table>

    <h2>Events</h2>
    <p class="hint">What the component reports to the page (<code>onEvent</code>): actions with counts, booleans and field
      names, never card data.</p>
    <ol id="events" aria-live="polite"></ol>
  </main>
</body>
</html>
`;
}
