/**
 * Debian's Chromium for the browser tests, driven by playwright-core (no browser is downloaded).
 * Without it a suite is skipped with one line saying how to run it, except where
 * RCP_REQUIRE_BROWSER=1 (CI's .ci/run): there a missing browser fails.
 */
import { existsSync } from "node:fs";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM = process.env.RCP_CHROMIUM ?? "/usr/bin/chromium";
export const browserRequired = process.env.RCP_REQUIRE_BROWSER === "1";
export const browserAvailable = existsSync(CHROMIUM);
/** Whether a browser suite runs here (it then fails in beforeAll when the browser is missing). */
export const runBrowserSuite = browserAvailable || browserRequired;

/** Says once, for `suite`, why it does not run. */
export function announceBrowserSkip(suite: string): void {
  if (!runBrowserSuite)
    console.log(
      `${suite} skipped: no Chromium at ${CHROMIUM}; install Debian's (apt-get install -y chromium) or set RCP_CHROMIUM to run it`,
    );
}

/** What issue 13 asks Chromium to be started with, plus a fresh profile of its own. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Chromium with a fresh profile in `profileDir`; throws when the browser is required but missing. */
export async function launchChromium(profileDir: string): Promise<BrowserContext> {
  if (!browserAvailable) throw new Error(`RCP_REQUIRE_BROWSER=1 but there is no Chromium at ${CHROMIUM}`);
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}
