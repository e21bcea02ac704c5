import type { LinkedPostRow } from "../linked-posts/linked-post.kind.ts";
import { nonEmptyFields, presentJsonLdHead, presentLinkedPost } from "../linked-posts/linked-post.present.ts";
import type { PresentView } from "../shared/present-view.ts";
import type { OrganizerJsonLd, OrganizerOutput } from "./organizer.schemas.ts";

/** The columns only organizers have (phone and website are common to venues and organizers). */
export interface OrganizerColumns {
  email: string;
}

export type OrganizerRow = LinkedPostRow<OrganizerColumns>;

/** schema.org `Organization`. */
export function presentOrganizerJsonLd(row: OrganizerRow, view: PresentView): OrganizerJsonLd {
  const head = presentJsonLdHead("Organization", "organizer", row, view);
  if (view.redacted) return head;
  return { ...head, ...nonEmptyFields({ telephone: row.phone, email: row.email, sameAs: row.website }) };
}

/** An organizer on the wire (docs/behaviour.md, "Organizer shape"): empty fields absent, details hidden while password-protected. */
export function presentOrganizer(row: OrganizerRow, view: PresentView): OrganizerOutput {
  return presentLinkedPost(row, view, "organizer", {
    details: nonEmptyFields({ phone: row.phone, website: row.website, email: row.email }),
    jsonLd: () => presentOrganizerJsonLd(row, view),
    trailing: {},
  });
}
