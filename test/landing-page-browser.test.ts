/**
 * The landing page's code blocks stay inside the page's box at a desktop and a phone width: a long
 * command scrolls within its own block (or wraps), and the page itself never scrolls sideways.
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { CHROMIUM_MISSING, launchChromium } from './helpers/chromium.js';
import { SHOTS_DIR, WIDTHS } from './helpers/layout.js';
import { startService, type RunningService } from './helpers/service.js';

let running: RunningService;
let browser: Browser | undefined;
test.before(async () => {
  running = await startService();
  browser = await launchChromium();
});
test.after.always(async () => {
  await browser?.close();
  await running?.close();
});

for (const width of WIDTHS) {
  test(`at ${width} px every code block fits main's content box, scrolling within itself if it must`, async (t) => {
    if (!browser) return t.log(CHROMIUM_MISSING), t.pass();
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${running.url}/`);
    // Measured in the page (a string: this project's TypeScript has no DOM library).
    const measured = (await page.evaluate(`(() => {
      const main = document.querySelector('main');
      const style = getComputedStyle(main);
      const contentRight = main.getBoundingClientRect().right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
      return {
        page: { scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth },
        blocks: [...document.querySelectorAll('main pre')].map((pre) => ({
          right: pre.getBoundingClientRect().right,
          contentRight,
          overflows: pre.scrollWidth > pre.clientWidth,
          overflowX: getComputedStyle(pre).overflowX,
        })),
      };
    })()`)) as {
      page: { scrollWidth: number; clientWidth: number };
      blocks: { right: number; contentRight: number; overflows: boolean; overflowX: string }[];
    };
    if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/landing-${width}.png`, fullPage: true });
    await page.close();
    t.true(measured.blocks.length >= 2);
    t.true(measured.page.scrollWidth <= measured.page.clientWidth, `the page does not scroll sideways: ${JSON.stringify(measured.page)}`);
    for (const block of measured.blocks) {
      t.true(block.right <= block.contentRight + 0.5, `a code block ends inside main: ${JSON.stringify(block)}`);
      if (block.overflows) t.true(['auto', 'scroll'].includes(block.overflowX), 'a block wider than its box scrolls within itself');
    }
  });
}
