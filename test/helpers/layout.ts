/**
 * A page looked at as its user would: at a desktop and a phone width (375 px, the narrowest common phone),
 * nothing sticks out sideways, and with SHOTS_DIR set a full-page screenshot of each width is kept there
 * for a person to look at.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';

export const WIDTHS = [1280, 375] as const;

/** The directory screenshots go to, when a person asked for them. */
export const SHOTS_DIR = process.env.SHOTS_DIR;

export async function fitsEveryWidth(t: ExecutionContext, page: Page, name: string): Promise<void> {
  const height = page.viewportSize()?.height ?? 900;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height });
    // A string: this project's TypeScript has no DOM library.
    const overflow = (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
    t.is(overflow, 0, `${name}: nothing sticks out sideways at ${width} px`);
    if (SHOTS_DIR) {
      fs.mkdirSync(SHOTS_DIR, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${width}.png`), fullPage: true });
    }
  }
}
