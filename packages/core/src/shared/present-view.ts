import type { LinkBase } from "./links.ts";
import type { Translations } from "./translations.ts";

/** What a presenter needs besides the row. */
export interface PresentView {
  links: LinkBase;
  /** Password-protected and not unlocked: only the name and the bookkeeping fields are shown. */
  redacted: boolean;
  jsonLd: boolean;
  translations: Translations;
}
