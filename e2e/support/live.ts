/** A provider key the e2e server holds, which no page or RSC payload may ever carry to the browser (e2e/live). */
export const E2E_PROVIDER_KEY = 'sk-e2e-never-in-the-browser-5f1c2a9d';
