import { VENUE } from "./linked-post-suites/kinds.ts";
import { linkedPostSecuritySuite } from "./linked-post-suites/security.ts";

linkedPostSecuritySuite(VENUE);
