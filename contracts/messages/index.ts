import { catalogueMessages } from './catalogue';
import { commonMessages } from './common';

export { EXAMPLE_EMAIL, withExampleEmail } from './example-email';

/**
 * Every user-facing text of the spec, word for word (spelling included), one module per area so that a
 * page's JavaScript carries only its own texts (the web app imports the area modules; the server this).
 */
export const messages = {
  common: commonMessages,
  catalogue: catalogueMessages,
} as const;
