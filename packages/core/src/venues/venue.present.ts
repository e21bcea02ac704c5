import type { LinkedPostRow } from "../linked-posts/linked-post.kind.ts";
import { nonEmptyFields, presentJsonLdHead, presentLinkedPost } from "../linked-posts/linked-post.present.ts";
import type { PresentView } from "../shared/present-view.ts";
import type { VenueJsonLd, VenueOutput } from "./venue.schemas.ts";

/** The columns only venues have. */
export interface VenueColumns {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  stateprovince: string;
  showMap: boolean;
  showMapLink: boolean;
  geoLat: number | null;
  geoLng: number | null;
}

export type VenueRow = LinkedPostRow<VenueColumns>;

/** schema.org `Place` with its `PostalAddress` and coordinates. */
export function presentVenueJsonLd(row: VenueRow, view: PresentView): VenueJsonLd {
  const head = presentJsonLdHead("Place", "venue", row, view);
  if (view.redacted) return head;
  const address = nonEmptyFields({
    streetAddress: row.address,
    addressLocality: row.city,
    addressRegion: row.stateprovince || row.state || row.province,
    postalCode: row.zip,
    addressCountry: row.country,
  });
  return {
    ...head,
    ...(Object.keys(address).length > 0 ? { address: { "@type": "PostalAddress" as const, ...address } } : {}),
    ...(row.geoLat !== null && row.geoLng !== null
      ? { geo: { "@type": "GeoCoordinates" as const, latitude: row.geoLat, longitude: row.geoLng } }
      : {}),
    ...nonEmptyFields({ telephone: row.phone, sameAs: row.website }),
  };
}

/** A venue on the wire (docs/behaviour.md, "Venue shape"): empty fields absent, details hidden while password-protected. */
export function presentVenue(row: VenueRow, view: PresentView): VenueOutput {
  return presentLinkedPost(row, view, "venue", {
    details: nonEmptyFields({
      address: row.address,
      city: row.city,
      country: row.country,
      province: row.province,
      state: row.state,
      zip: row.zip,
      phone: row.phone,
      website: row.website,
      stateprovince: row.stateprovince,
      geo_lat: row.geoLat,
      geo_lng: row.geoLng,
    }),
    jsonLd: () => presentVenueJsonLd(row, view),
    trailing: { show_map: row.showMap, show_map_link: row.showMapLink },
  });
}
