import { linkedPostErrorSuite } from "../suites/linked-posts/error.ts";
import { ORGANIZER } from "../suites/linked-posts/kinds.ts";

linkedPostErrorSuite(ORGANIZER);
