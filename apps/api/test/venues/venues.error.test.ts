import { linkedPostErrorSuite } from "../suites/linked-posts/error.ts";
import { VENUE } from "../suites/linked-posts/kinds.ts";

linkedPostErrorSuite(VENUE);
