import { linkedPostErrorSuite } from "../venues/linked-post-suites/error.ts";
import { ORGANIZER } from "../venues/linked-post-suites/kinds.ts";

linkedPostErrorSuite(ORGANIZER);
