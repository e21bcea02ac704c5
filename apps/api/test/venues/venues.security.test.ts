import { VENUE } from "../suites/linked-posts/kinds.ts";
import { linkedPostSecuritySuite } from "../suites/linked-posts/security.ts";

linkedPostSecuritySuite(VENUE);
