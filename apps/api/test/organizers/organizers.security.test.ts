import { ORGANIZER } from "../venues/linked-post-suites/kinds.ts";
import { linkedPostSecuritySuite } from "../venues/linked-post-suites/security.ts";

linkedPostSecuritySuite(ORGANIZER);
